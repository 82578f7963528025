package config

import (
	"fmt"
	"net/url"
	"slices"
	"strings"
	"time"

	"github.com/tailscale/hujson"
)

// The keys of each section, in the order error messages list them.
var (
	topKeys     = []string{"model", "models", "sandbox", "retry", "compaction", "customTools", "maxConcurrentRuns", "resume", "health", "approvals", "metrics", "transcription", "limits", "adapters", "channels"}
	modelKeys   = []string{"provider", "id", "apiKey", "baseUrl", "thinking", "maxTokens", "contextWindow"}
	sandboxKeys = []string{"type", "container", "isolation", "network", "env"}
	retryKeys   = []string{"maxRetries", "baseDelayMs", "maxDelayMs"}

	providers      = []string{ProviderAnthropic, ProviderOpenAI}
	sandboxTypes   = []string{SandboxHost, SandboxDocker, SandboxBwrap}
	isolations     = []string{IsolationChannel, IsolationUser, IsolationNone}
	thinkingLevels = []string{string(ThinkingOff), string(ThinkingLow), string(ThinkingMedium), string(ThinkingHigh)}
	busyPolicies   = []string{string(BusyReject), string(BusyQueue), string(BusySteer)}
)

func (d *decoder) config(root *hujson.Value) *Config {
	c := &Config{
		Model:      Model{Thinking: ThinkingOff},
		Sandbox:    Sandbox{}, // the type is left open for Choose
		Retry:      Retry{MaxRetries: DefaultMaxRetries, BaseDelay: DefaultBaseDelay, MaxDelay: DefaultMaxDelay},
		Compaction: defaultCompaction(),

		CustomTools: defaultCustomTools(),

		MaxConcurrentRuns: DefaultMaxConcurrentRuns(),
		Resume:            Resume{Within: DefaultResumeWithin},
	}
	top, ok := d.object(root, "")
	if !ok {
		return c
	}
	if o := top.child("model"); o != nil {
		d.model(o, &c.Model)
	}
	if o := top.child("models"); o != nil {
		c.Models = d.models(o)
	}
	if o := top.child("sandbox"); o != nil {
		d.sandbox(o, &c.Sandbox)
	}
	if o := top.child("retry"); o != nil {
		d.retry(o, &c.Retry)
	}
	if o := top.child("compaction"); o != nil {
		d.compaction(o, &c.Compaction)
	}
	if v := top.get("customTools"); v != nil {
		d.customTools(v, &c.CustomTools)
	}
	d.maxConcurrentRuns(top, c)
	if o := top.child("resume"); o != nil {
		d.resume(o, &c.Resume)
	}
	if o := top.child("health"); o != nil {
		d.health(o, &c.Health)
	}
	if o := top.child("approvals"); o != nil {
		d.approvals(o, &c.Approvals)
	}
	if o := top.child("metrics"); o != nil {
		d.metrics(o, &c.Metrics)
	}
	if o := top.child("transcription"); o != nil {
		c.Transcription = d.transcription(o)
	}
	if o := top.child("limits"); o != nil {
		d.limits(o, &c.Limits)
	}
	if o := top.child("adapters"); o != nil {
		c.Adapters = d.adapters(o, c.Models)
	}
	if o := top.child("channels"); o != nil {
		c.Channels = d.channels(o, c.Adapters, c.Models)
	}
	d.healthBesideAdapters(c)
	top.finish(topKeys...)
	return c
}

func (d *decoder) model(o *object, m *Model) {
	if s, ok := o.enum("provider", "provider", providers); ok {
		m.Provider = s
		m.fileProvider = s
	}
	if s, ok := o.str("id"); ok {
		m.ID = s
	}
	if s, ok := o.str("apiKey"); ok && s != "" {
		m.APIKey = s
		m.keyFrom = keyFromFile
	}
	if s, ok := o.str("baseUrl"); ok && s != "" {
		if checkURL(s) {
			m.BaseURL = s
		} else {
			d.fail(joinPath(o.path, "baseUrl"), "%q is not an http(s) URL; write it like \"http://127.0.0.1:11434/v1\"", s)
		}
	}
	if s, ok := o.enum("thinking", "thinking level", thinkingLevels); ok {
		m.Thinking = ThinkingLevel(s)
	}
	if n, ok := o.int("maxTokens", 0); ok {
		m.MaxTokens = n
	}
	if n, ok := o.int("contextWindow", 0); ok {
		m.ContextWindow = n
	}
	o.finish(modelKeys...)
}

// checkURL accepts what an HTTP client can connect to, so a forgotten "http://" is caught here
// rather than as a puzzling error on the first message.
func checkURL(s string) bool {
	u, err := url.Parse(s)
	return err == nil && (u.Scheme == "http" || u.Scheme == "https") && u.Host != ""
}

func (d *decoder) sandbox(o *object, s *Sandbox) {
	if t, ok := o.enum("type", "sandbox type", sandboxTypes); ok {
		s.Type = t
	}
	if c, ok := o.str("container"); ok {
		s.Container = c
	}
	if i, ok := o.enum("isolation", "isolation", isolations); ok {
		s.Isolation = i
	}
	if b, ok := o.boolean("network"); ok {
		s.Offline = !b
	}
	if names, ok := o.strings("env"); ok {
		for i, n := range names {
			if msg := envNameProblem(n); msg != "" {
				d.fail(fmt.Sprintf("%s[%d]", joinPath(o.path, "env"), i), "%s", msg)
			}
		}
		s.Env = names
	}
	o.finish(sandboxKeys...)
	switch {
	case s.Type == SandboxDocker && s.Container == "":
		d.fail(o.path, "the docker sandbox needs the name of a running container, e.g. \"container\": \"mom-sandbox\"")
	case s.Type != SandboxDocker && s.Container != "":
		d.fail(joinPath(o.path, "container"), "only the docker sandbox uses a container; set \"type\": \"docker\" or remove it")
	}
	if s.Type != "" {
		if key, err := s.check(); err != nil {
			d.fail(joinPath(o.path, key), "%v", err)
		}
	}
}

// envNameProblem says what is wrong with a variable name in sandbox.env, or "".
func envNameProblem(name string) string {
	for i, c := range name {
		if !(c == '_' || c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || i > 0 && c >= '0' && c <= '9') {
			return fmt.Sprintf("%q is not a variable name (letters, digits and \"_\", not starting with a digit)", name)
		}
	}
	if strings.HasPrefix(name, "LD_") || strings.HasPrefix(name, "DYLD_") {
		return fmt.Sprintf("%s steers the dynamic loader and is never passed to commands", name)
	}
	return ""
}

func (d *decoder) retry(o *object, r *Retry) {
	if n, ok := o.int("maxRetries", 0); ok {
		r.MaxRetries = n
	}
	if n, ok := o.int("baseDelayMs", 0); ok {
		r.BaseDelay = time.Duration(n) * time.Millisecond
	}
	if n, ok := o.int("maxDelayMs", 0); ok {
		r.MaxDelay = time.Duration(n) * time.Millisecond
	}
	o.finish(retryKeys...)
	if r.MaxDelay < r.BaseDelay {
		d.fail(o.path, "maxDelayMs (%d) is smaller than baseDelayMs (%d)", r.MaxDelay.Milliseconds(), r.BaseDelay.Milliseconds())
	}
}

func (d *decoder) adapters(o *object, models map[string]Model) []AdapterEntry {
	var out []AdapterEntry
	for _, m := range o.members() {
		name := memberName(m)
		path := joinPath(o.path, name)
		if !ValidAdapterName(name) {
			d.fail(path, "adapter names may use only letters, digits, \"-\" and \"_\" (1 to 64 characters), because they name directories")
			continue
		}
		if a, ok := d.adapterEntry(&m.Value, path, name, models); ok {
			out = append(out, a)
		}
	}
	slices.SortFunc(out, func(a, b AdapterEntry) int { return strings.Compare(a.Name, b.Name) })
	return out
}

// adapterEntry decodes the entry of the adapter called name.
func (d *decoder) adapterEntry(v *hujson.Value, path, name string, models map[string]Model) (AdapterEntry, bool) {
	a := AdapterEntry{Name: name, Busy: BusyReject}
	o, ok := d.object(v, path)
	if !ok {
		return a, false
	}
	types := platformTypes(d.platforms)
	if o.get("type") == nil {
		d.fail(path, "missing \"type\" (one of: %s)", strings.Join(types, ", "))
		return a, false
	}
	t, ok := o.str("type")
	if !ok {
		return a, false
	}
	p, known := d.platforms[t]
	if !known {
		if s := suggest(t, types); s != "" {
			d.fail(joinPath(path, "type"), "unknown adapter type %q; did you mean %q? (known types: %s)", t, s, strings.Join(types, ", "))
		} else {
			d.fail(joinPath(path, "type"), "unknown adapter type %q (known types: %s)", t, strings.Join(types, ", "))
		}
		return a, false
	}
	a.Type = t
	a.Platform = p
	a.DM = p.DM
	if p.Busy != "" {
		a.Busy = p.Busy
	}
	n := len(d.errs)
	if b, ok := o.enum("busy", "busy policy", busyPolicies); ok {
		a.Busy = BusyPolicy(b)
	}
	if ids, ok := o.strings("admins"); ok {
		a.Admins = d.users(ids, joinPath(path, "admins"), p)
	}
	if v := o.get("dm"); v != nil {
		if dm, ok := d.dm(v, joinPath(path, "dm"), p.UserID); ok {
			dm.Users = d.users(dm.Users, joinPath(path, "dm"), p)
			a.DM = dm
		}
	}
	if ao := o.child("approvals"); ao != nil {
		d.approvals(ao, &a.Approvals)
	}
	if m, ok := d.modelRef(o, models); ok {
		a.Model = m
	}
	if lo := o.child("limits"); lo != nil {
		d.limits(lo, &a.Limits)
	}
	keys := slices.Clip(commonAdapterKeys)
	if p.Groups != nil {
		a.Groups = p.Groups.Default
		keys = append(keys, "groups")
		if v := o.get("groups"); v != nil {
			if gp, ok := d.groups(v, joinPath(path, "groups"), p.Groups); ok {
				a.Groups = gp
			}
		}
	}
	keys = append(keys, p.Keys...)
	if p.Decode != nil {
		a.Options = p.Decode(&Object{o: o})
	}
	o.finish(keys...)
	return a, len(d.errs) == n
}

// users spells the user ids listed under path the platform's one way (Platform.User),
// reporting those that are no user ids of the platform.
func (d *decoder) users(ids []string, path string, p *Platform) []string {
	if p.User == nil || ids == nil {
		return ids
	}
	out := make([]string, len(ids))
	for i, id := range ids {
		u, err := p.User(id)
		if err != nil {
			d.fail(fmt.Sprintf("%s[%d]", path, i), "%v", err)
			u = id
		}
		out[i] = u
	}
	return out
}

// dm reads a DM policy; example is one of the platform's user ids, for the error message.
func (d *decoder) dm(v *hujson.Value, path, example string) (DMPolicy, bool) {
	if _, ok := v.Value.(*hujson.Array); ok {
		ids, ok := d.strings(v, path)
		return DMPolicy{Users: ids}, ok
	}
	if lit, ok := v.Value.(hujson.Literal); ok && lit.Kind() == '"' {
		s, ok := d.str(v, path)
		if !ok {
			return DMPolicy{}, false
		}
		switch s {
		case "everyone":
			return DMPolicy{Everyone: true}, true
		case "none":
			return DMPolicy{}, true
		}
		d.fail(path, "%q is not valid (use \"everyone\", \"none\" or a list of user ids like [%q])", s, example)
		return DMPolicy{}, false
	}
	d.fail(path, "expected \"everyone\", \"none\" or a list of user ids, got %s", kindName(v))
	return DMPolicy{}, false
}
