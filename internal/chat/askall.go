package chat

import "sync"

// AskAll calls ask for every key, at most limit at once, and joins the ids they return in the
// order of keys. It is how an adapter asks its platform, place by place (a group, a server),
// which channels a person is in: a key whose ask fails is passed to failed and
// left out, and an error (the last failure) is returned only when every ask failed, so one
// unreachable place does not hide all the others.
func AskAll[K any](keys []K, limit int, ask func(K) ([]string, error), failed func(K, error)) ([]string, error) {
	found, errs := make([][]string, len(keys)), make([]error, len(keys))
	sem := make(chan struct{}, max(limit, 1))
	var wg sync.WaitGroup
	for i, k := range keys {
		sem <- struct{}{}
		wg.Go(func() {
			defer func() { <-sem }()
			found[i], errs[i] = ask(k)
		})
	}
	wg.Wait()

	var ids []string
	var last error
	nFailed := 0
	for i, k := range keys {
		if errs[i] != nil {
			failed(k, errs[i])
			nFailed++
			last = errs[i]
			continue
		}
		ids = append(ids, found[i]...)
	}
	if nFailed > 0 && nFailed == len(keys) {
		return nil, last
	}
	return ids, nil
}
