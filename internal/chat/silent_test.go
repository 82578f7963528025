package chat

import "testing"

func TestSilentIsTheWholeAnswer(t *testing.T) {
	t.Parallel()
	for answer, want := range map[string]bool{
		"[SILENT]":                         true,
		"  [SILENT]\n":                     true,
		"[SILENT] nothing new, but a note": false,
		"[SILENT]\nactually, one thing":    false,
		"ok [SILENT]":                      false,
		"":                                 false,
	} {
		if got := IsSilent(answer); got != want {
			t.Errorf("IsSilent(%q) = %v, want %v", answer, got, want)
		}
	}
	for sofar, want := range map[string]bool{
		"":            true,
		"\n [SIL":     true,
		"[SILENT]":    true,
		"[SILENT]  ":  true,
		"[SILENT] x":  false,
		"[SIX":        false,
		"Hello":       false,
		"[":           true,
		"[SILENT]\n.": false,
	} {
		if got := MaybeSilent(sofar); got != want {
			t.Errorf("MaybeSilent(%q) = %v, want %v", sofar, got, want)
		}
	}
}
