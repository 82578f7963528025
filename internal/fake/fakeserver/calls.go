package fakeserver

// Select returns the calls a fake recorded under one name (a method, a route), or every call
// when name is "", in arrival order. nameOf says what a call is recorded under.
func Select[C any](calls []C, name string, nameOf func(C) string) []C {
	var out []C
	for _, c := range calls {
		if name == "" || nameOf(c) == name {
			out = append(out, c)
		}
	}
	return out
}
