package main

import (
	"os"
	"regexp"
	"testing"
)

// terminalPlatform runs the conformance suite against the terminal adapter: one person at the
// keyboard whose every line addresses mom, with the answer printed to stdout.
type terminalPlatform struct {
	p *proc
}

func newTerminalPlatform(t *testing.T) platform { return &terminalPlatform{} }

func (tp *terminalPlatform) adapter() string { return `"type": "cli"` }

// cast: the terminal's one person is $USER (ada in the tests), in the one channel "local".
func (tp *terminalPlatform) cast() cast {
	return cast{admin: "ada", user: "ada", group: "local", adminDM: "local", userDM: "local"}
}

func (tp *terminalPlatform) started(t testing.TB, p *proc) { tp.p = p }

func (tp *terminalPlatform) say(t *testing.T, m said) { tp.p.send(m.text) }

// shown is everything printed so far: the terminal has one conversation and no messages to
// edit or delete.
func (tp *terminalPlatform) shown(channel string) []string {
	if out := tp.p.out.String(); out != "" {
		return []string{out}
	}
	return nil
}

func (tp *terminalPlatform) deleted(channel string) int { return 0 }

// attachedLine is how the terminal reports a file the agent attached.
var attachedLine = regexp.MustCompile(`attached file: (\S+)`)

// uploads reads back the files the terminal reported as attached: on the terminal, attaching
// a file means showing where it is.
func (tp *terminalPlatform) uploads(t *testing.T, channel string) []sentFile {
	var out []sentFile
	for _, m := range attachedLine.FindAllStringSubmatch(tp.p.out.String(), -1) {
		data, err := os.ReadFile(m[1])
		if err != nil {
			t.Errorf("the terminal named %s as attached, but: %v", m[1], err)
			continue
		}
		out = append(out, sentFile{name: m[1], content: data})
	}
	return out
}

func (tp *terminalPlatform) drop()             {}
func (tp *terminalPlatform) reconnected() bool { return true }

func (tp *terminalPlatform) lacks(f feature) string {
	switch f {
	case featurePeople, featureChatter, featureDMs:
		return "the terminal has one person at the keyboard, who always addresses mom; its access " +
			"control is covered by TestRefusedDMIsAnsweredOnceAndLogged and TestAdminMayAlwaysDM"
	case featureFilesIn:
		return "nobody can send the terminal a file; people name paths in their message instead"
	case featureConnection:
		return "the terminal has no connection to drop"
	case featureDowntime:
		return "the terminal is mom's own keyboard: while mom is down, nobody reads it"
	case featureEdits:
		return "the terminal prints; what it printed stays as it was"
	case featureSilent:
		return "the terminal has no status message to take back; it holds back an answer that may " +
			"be [SILENT] and never prints it (internal/adapter/cli TestSilentAnswerIsNotPrinted)"
	}
	return ""
}

func (tp *terminalPlatform) maxText() int { return 0 }

func (tp *terminalPlatform) codeIntact(text string) bool { return balancedFences(text) }

func (tp *terminalPlatform) violations() []string { return nil }

// decide types the answer at the terminal, as its person does.
func (tp *terminalPlatform) decide(t *testing.T, channel, from, choice string) {
	tp.p.send(map[string]string{"allow": "y", "always": "a", "deny": "n"}[choice])
}

// refusals: the terminal's one person may always decide.
func (tp *terminalPlatform) refusals() []string { return nil }
