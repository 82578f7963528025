package sandbox

import (
	"slices"
	"testing"
)

func TestEnvBuilder(t *testing.T) {
	host := []string{
		"PATH=/bin", "HOME=/h", "OPENAI_API_KEY=sk", "LC_ALL=C", "LD_PRELOAD=x.so", "WEIRD",
		"=bad", "KEEP=1", "PAGER=less",
	}
	b := newEnvBuilder(host, []string{"KEEP", "LD_PRELOAD"})
	got, err := b.build([]string{"A=1", "HOME=/other", "LD_AUDIT=y", "DYLD_X=z"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"PAGER=cat", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0", "GIT_EDITOR=true",
		"DEBIAN_FRONTEND=noninteractive", "PATH=/bin", "HOME=/other", "LC_ALL=C", "KEEP=1", "A=1",
	}
	if !slices.Equal(got, want) {
		t.Errorf("env\n got %q\nwant %q", got, want)
	}
	if base, _ := b.build(nil); slices.Contains(base, "A=1") {
		t.Error("build modified the base")
	}
}
