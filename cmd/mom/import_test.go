package main

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	fakellm "github.com/mom-agent/mom/internal/fake/llm"
	"github.com/mom-agent/mom/internal/session"
)

// The tests of `mom import`: testdata/pimom is a data directory of pi's original mom, in its
// own formats (pimom.md §1.7): two channels, C0GENERAL (a session v1 context with a
// compaction, ts-based ids, mom's "user":"bot" lines, an {original, local} attachment, a torn
// line, a line said after the original's last run) and D0ADADM (a session v2 context with a
// hookMessage, an abandoned branch and entries a v1 writer appended), events naming bare
// channel ids, settings.json, MEMORY.md, SYSTEM.md, a skill, a TypeScript tool and a
// directory the agent made.

// oldDir copies testdata/pimom into a directory of the test's own.
func oldDir(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "old-mom")
	if err := os.CopyFS(dir, os.DirFS("testdata/pimom")); err != nil {
		t.Fatal(err)
	}
	return dir
}

// treeHash describes everything under dir without following a link or opening a special
// file: each name with its type, mode, size, time and, for files up to 1 MiB, the hash of its
// bytes (larger ones, such as sparse 100 GiB files, by size and time). skip leaves names out.
func treeHash(t *testing.T, dir string, skip ...string) string {
	t.Helper()
	var lines []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if slices.Contains(skip, d.Name()) {
			return nil
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		line := fmt.Sprintf("%s %v %d %d", rel, info.Mode(), info.Size(), info.ModTime().UnixNano())
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			line += " -> " + target
		case info.Mode().IsRegular() && info.Size() <= 1<<20:
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			sum := sha256.Sum256(b)
			line += " " + hex.EncodeToString(sum[:])
		}
		lines = append(lines, line)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return strings.Join(lines, "\n")
}

// readLog reads a channel's log.jsonl as mom's messages, failing on a line that is not one.
func readLog(t *testing.T, path string) []chat.Message {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []chat.Message
	for _, l := range strings.Split(strings.TrimSuffix(string(data), "\n"), "\n") {
		var m chat.Message
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("%s has a line that is not mom's: %v\n%s", path, err, l)
		}
		out = append(out, m)
	}
	return out
}

// openContext checks a context.jsonl against pi's format rules and opens it with mom's loader.
func openContext(t *testing.T, dir string) *session.Session {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, "context.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	err = session.CheckFormat(f)
	f.Close()
	if err != nil {
		t.Fatalf("%s/context.jsonl breaks pi's format: %v", dir, err)
	}
	s, err := session.Open(confined.Root(dir), "context.jsonl", dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	if s.Recovered() != "" || s.Stats().Malformed != 0 {
		t.Fatalf("mom's loader: recovered %q, stats %+v", s.Recovered(), s.Stats())
	}
	return s
}

// texts are the texts of a context's messages, each prefixed with its role.
func texts(s *session.Session) []string {
	var out []string
	for _, m := range s.Context() {
		out = append(out, string(m.Role)+": "+m.Text())
	}
	return out
}

func mustContain(t *testing.T, what, s string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(s, w) {
			t.Errorf("%s lacks %q:\n%s", what, w, s)
		}
	}
}

// TestImportPiMom imports the original's directory end to end: every line converted or kept
// aside, attachments re-pointed at their copies, both contexts migrated to version 3 (pi's
// rules, mom's loader), the workspace's files, events and skills, the summary with what to do
// next, `mom download` showing the history, the old directory untouched, and a second run
// that changes nothing.
func TestImportPiMom(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	old := oldDir(t)
	before := treeHash(t, old)

	res := w.mom("", "import", old, w.dir, "--adapter", "slack-acme")
	if res.code != 0 {
		t.Fatalf("import exited %d\nstdout:\n%s\nstderr:\n%s", res.code, res.stdout, res.stderr)
	}
	mustContain(t, "the summary", res.stdout,
		"C0GENERAL → slack-acme/C0GENERAL: imported: 8 log lines converted, 1 not (kept in log.unconverted.jsonl); 1 attachment; 2 other files; MEMORY.md; context: session v1 → v3, 10 entries; 1 message said since the original's last run added",
		"D0ADADM   → slack-acme/D0ADADM: imported: 4 log lines converted; 0 attachments; context: session v2 → v3, 6 entries",
		"files: MEMORY.md, SYSTEM.md", "skills: 1", "events: 2 converted (channelId now <adapter>/<channel>), 1 copied as they were",
		"mom will set events/torn.json aside when it starts",
		"artifacts: not part of the original mom's layout",
		"Custom tools in TypeScript cannot run in mom: tools/github",
		"Total: 2 channels (2 imported), 12 lines converted, 1 not, 1 attachment, 3 events, 2 memory files.",
		`"model": {"provider": "anthropic", "id": "claude-opus-4-5", "thinking": "low"},`,
		`"compaction": {"enabled": true, "reserveTokens": 8192},`, `"retry": {"maxRetries": 5, "baseDelayMs": 1000},`,
		`"slack-acme": {`, `"botToken": "${MOM_SLACK_BOT_TOKEN}"`, `"appToken": "${MOM_SLACK_APP_TOKEN}"`,
		"mom slack-manifest", "Start mom: mom "+w.dir)
	if after := treeHash(t, old); after != before {
		t.Fatalf("the old directory changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}

	general := w.channelDir("slack-acme", "C0GENERAL")
	msgs := readLog(t, filepath.Join(general, "log.jsonl"))
	var got []string
	for _, m := range msgs {
		got = append(got, fmt.Sprintf("%s %s %s %s", m.ID, m.TS.Format(time.RFC3339Nano), m.Sender.Username, m.Text))
	}
	want := []string{
		"1763629200000 2025-11-20T09:00:00Z bea hello from the first version",
		"1764153600.000100 2025-11-26T10:40:00.0001Z bea morning all",
		"1764153840.123456 2025-11-26T10:44:00.123456Z ada can you check the build log?",
		"mom-1764153841.000200 2025-11-26T10:44:05.001Z mom _Reading the log_",
		"mom-1764153841.000200-2 2025-11-26T10:44:09.512Z mom Build is green. The launch code is tangerine.",
		"1764154200.000300 2025-11-26T10:50:00.0003Z ada thanks mom",
		"mom-1764154201.000400 2025-11-26T10:50:03Z mom You're welcome.",
		"1764158400.000500 2025-11-26T12:00:00.0005Z bea did anyone water the plants?",
	}
	if !slices.Equal(got, want) {
		t.Fatalf("log.jsonl:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if s := msgs[3].Sender; !s.IsBot || s.ID != "bot" || msgs[2].Sender != (chat.User{ID: "U0ADA", Username: "ada", DisplayName: "Ada Lovelace"}) {
		t.Errorf("senders %+v %+v", msgs[3].Sender, msgs[2].Sender)
	}
	if a := msgs[2].Attachments; len(a) != 1 || a[0] != (chat.Attachment{Filename: "log.txt", LocalPath: "attachments/1764153840123_log.txt", MimeType: "text/plain", Size: 30}) {
		t.Errorf("attachment %+v", a)
	}
	if a := msgs[7].Attachments; len(a) != 1 || a[0].LocalPath != "" || a[0].Error == "" {
		t.Errorf("an attachment whose download never arrived: %+v", a)
	}
	copied, _ := os.ReadFile(filepath.Join(general, "attachments", "1764153840123_log.txt"))
	orig, _ := os.ReadFile(filepath.Join(old, "C0GENERAL", "attachments", "1764153840123_log.txt"))
	if !bytes.Equal(copied, orig) {
		t.Errorf("attachment copied as %q", copied)
	}
	if b, _ := os.ReadFile(filepath.Join(general, "log.unconverted.jsonl")); string(b) != "this line was torn by a crash {\"date\":\n" {
		t.Errorf("log.unconverted.jsonl = %q", b)
	}

	// The v1 context: after its compaction's summary, the entries it kept, then the line
	// said after the original's last run, as the original would have synced it; and the mark
	// that the context holds the whole log.
	sess := openContext(t, general)
	wantCtx := []string{
		"user: The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nKeep the build green.\n\n## Progress\nBea said hello in the first week.\n</summary>",
		"user: [2025-11-26 11:44:00+01:00] [ada]: can you check the build log?\n\n<slack_attachments>\n/workspace/C0GENERAL/attachments/1764153840123_log.txt\n</slack_attachments>",
		"assistant: Let me look.",
		"toolResult: BUILD OK\nall 412 tests passed",
		"assistant: Build is green. The launch code is tangerine.",
		"user: [2025-11-26 11:50:00+01:00] [ada]: thanks mom",
		"assistant: You're welcome.",
		"user: [bea]: did anyone water the plants?",
	}
	if got := texts(sess); !slices.Equal(got, wantCtx) {
		t.Errorf("C0GENERAL's context:\n%q\nwant\n%q", got, wantCtx)
	}
	st, _ := os.Stat(filepath.Join(general, "log.jsonl"))
	if raw, ok := sess.LastCustom("mom.logSync"); !ok || string(raw) != fmt.Sprintf(`{"offset":%d}`, st.Size()) {
		t.Errorf("mom.logSync %s %v, want the log's size %d", raw, ok, st.Size())
	}
	if h := sess.Header(); h.ID != "3f0c1a0e-2c43-4d4e-9f3e-8a9b2d1e7c11" || h.Version != 3 {
		t.Errorf("header %+v", h)
	}

	// The v2 context: the active branch, its hookMessage a custom message now.
	dm := w.channelDir("slack-acme", "D0ADADM")
	wantDM := []string{
		"user: [2025-11-25 09:00:00+01:00] [ada]: what is the wifi password?",
		"assistant: It is on the fridge: <kitchen & co>.",
		"user: The dentist is on Friday.",
		"user: [2025-11-25 09:05:00+01:00] [ada]: remind me about the dentist",
		"assistant: Done: dentist.json",
	}
	if got := texts(openContext(t, dm)); !slices.Equal(got, wantDM) {
		t.Errorf("D0ADADM's context:\n%q\nwant\n%q", got, wantDM)
	}
	if m := readLog(t, filepath.Join(dm, "log.jsonl")); len(m) != 4 || !m[0].IsDM || !m[0].IsMention || m[1].IsMention {
		t.Errorf("DM log %+v", m)
	}

	ws := filepath.Join(w.dir, "workspace")
	for name, from := range map[string]string{"MEMORY.md": "MEMORY.md", "SYSTEM.md": "SYSTEM.md", "skills/note/SKILL.md": "skills/note/SKILL.md",
		"channels/slack-acme/C0GENERAL/MEMORY.md": "C0GENERAL/MEMORY.md", "channels/slack-acme/C0GENERAL/scratch/notes.txt": "C0GENERAL/scratch/notes.txt"} {
		a, _ := os.ReadFile(filepath.Join(ws, name))
		b, _ := os.ReadFile(filepath.Join(old, from))
		if len(a) == 0 || !bytes.Equal(a, b) {
			t.Errorf("%s is %q, want the old %s", name, a, from)
		}
	}
	if st, err := os.Stat(filepath.Join(ws, "skills/note/note.sh")); err != nil || st.Mode().Perm() != 0o755 {
		t.Errorf("the skill's script: %v %v", st, err)
	}
	var ev struct{ ChannelID string }
	if b, _ := os.ReadFile(filepath.Join(ws, "events/daily-summary.json")); json.Unmarshal(b, &ev) != nil || ev.ChannelID != "slack-acme/C0GENERAL" {
		t.Errorf("event: %s", b)
	}
	if _, err := os.Stat(filepath.Join(ws, "artifacts")); err == nil {
		t.Error("a directory outside the original's layout was copied")
	}

	// mom download shows the imported history (config.json has no Slack adapter, so from
	// the log).
	res = w.mom("", "download", w.dir, "slack-acme/C0GENERAL")
	if res.code != 0 {
		t.Fatalf("download exited %d: %s", res.code, res.stderr)
	}
	mustContain(t, "the transcript", res.stdout,
		"[2025-11-20 09:00:00] bea: hello from the first version\n",
		"[2025-11-26 10:44:00] ada: can you check the build log?\n",
		"[2025-11-26 10:44:09] mom: Build is green. The launch code is tangerine.\n",
		"[2025-11-26 12:00:00] bea: did anyone water the plants?\n")

	// Again: nothing changes, and the summary says so.
	beforeData := treeHash(t, w.dir, ".mom.lock")
	res = w.mom("", "import", old, w.dir, "--adapter", "slack-acme")
	if res.code != 0 {
		t.Fatalf("second import exited %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	mustContain(t, "the second summary", res.stdout, "C0GENERAL → slack-acme/C0GENERAL: unchanged (imported before)",
		"D0ADADM   → slack-acme/D0ADADM: unchanged (imported before)", "Total: 2 channels (2 unchanged), 0 lines converted")
	if after := treeHash(t, w.dir, ".mom.lock"); after != beforeData {
		t.Fatalf("the second import changed the data directory:\nbefore:\n%s\nafter:\n%s", beforeData, after)
	}
	if after := treeHash(t, old); after != before {
		t.Fatal("the second import changed the old directory")
	}
}

// TestImportRefusesAnExistingChannelAndMerges: a channel the data directory has already, with
// a history of its own, is refused (the others are imported, the exit status is 1); when the
// original ran on after an import, its newer lines are refused too, and --merge appends only
// the lines newer than the newest there, once.
func TestImportRefusesAnExistingChannelAndMerges(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	old := oldDir(t)
	dm := w.channelDir("slack-acme", "D0ADADM")
	if err := os.MkdirAll(dm, 0o755); err != nil {
		t.Fatal(err)
	}
	own, _ := json.Marshal(chat.Message{ID: "1900000000.000100", ChannelID: "D0ADADM", TS: time.Date(2030, 1, 1, 0, 0, 0, 0, time.UTC),
		Sender: chat.User{ID: "U0ADA", Username: "ada"}, Text: "said to the new mom", IsDM: true, IsMention: true})
	os.WriteFile(filepath.Join(dm, "log.jsonl"), append(own, '\n'), 0o644)
	dmBefore := treeHash(t, dm)

	res := w.mom("", "import", old, w.dir, "--adapter", "slack-acme")
	if res.code != 1 {
		t.Fatalf("import exited %d, want 1\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	mustContain(t, "the summary", res.stdout, "C0GENERAL → slack-acme/C0GENERAL: imported",
		"D0ADADM   → slack-acme/D0ADADM: refused: slack-acme/D0ADADM exists already with a history of its own; --merge appends the old lines newer than its newest")
	mustContain(t, "stderr", res.stderr, "1 of 2 channels were not imported")
	if treeHash(t, dm) != dmBefore {
		t.Fatal("the refused channel changed")
	}

	// The original ran on: two more lines, one with a file.
	general := w.channelDir("slack-acme", "C0GENERAL")
	imported, _ := os.ReadFile(filepath.Join(general, "log.jsonl"))
	os.WriteFile(filepath.Join(old, "C0GENERAL", "attachments", "1764244800000_plan.md"), []byte("# the plan\n"), 0o644)
	f, _ := os.OpenFile(filepath.Join(old, "C0GENERAL", "log.jsonl"), os.O_APPEND|os.O_WRONLY, 0)
	f.WriteString(`{"date":"2025-11-27T12:00:00.000Z","ts":"1764244800.000100","user":"U0ADA","userName":"ada","displayName":"Ada Lovelace","text":"here is the plan","attachments":[{"original":"plan.md","local":"C0GENERAL/attachments/1764244800000_plan.md"}],"isBot":false}` + "\n")
	f.WriteString(`{"date":"2025-11-27T12:00:04.000Z","ts":"1764244801.000200","user":"bot","text":"Noted.","attachments":[],"isBot":true}` + "\n")
	f.Close()

	res = w.mom("", "import", old, w.dir, "--adapter", "slack-acme")
	if res.code != 1 || !strings.Contains(res.stdout, "C0GENERAL → slack-acme/C0GENERAL: refused") {
		t.Fatalf("import of a changed channel exited %d\n%s", res.code, res.stdout)
	}
	res = w.mom("", "import", old, w.dir, "--adapter", "slack-acme", "--merge")
	if res.code != 0 {
		t.Fatalf("import --merge exited %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	mustContain(t, "the merge's summary", res.stdout,
		"C0GENERAL → slack-acme/C0GENERAL: merged: 2 newer lines appended, 1 attachment",
		"D0ADADM   → slack-acme/D0ADADM: merged: nothing newer than its newest line")
	after, _ := os.ReadFile(filepath.Join(general, "log.jsonl"))
	if !bytes.HasPrefix(after, imported) {
		t.Fatal("the merge changed the lines that were there")
	}
	msgs := readLog(t, filepath.Join(general, "log.jsonl"))
	last := msgs[len(msgs)-2:]
	if len(msgs) != 10 || last[0].ID != "1764244800.000100" || last[1].ID != "mom-1764244801.000200" ||
		len(last[0].Attachments) != 1 || last[0].Attachments[0].LocalPath != "attachments/1764244800000_plan.md" {
		t.Fatalf("merged log (%d lines) ends %+v", len(msgs), last)
	}
	if b, _ := os.ReadFile(filepath.Join(general, "attachments", "1764244800000_plan.md")); string(b) != "# the plan\n" {
		t.Errorf("merged attachment %q", b)
	}
	if treeHash(t, dm) != dmBefore {
		t.Fatal("the merge appended old lines older than the channel's newest")
	}

	beforeData := treeHash(t, w.dir, ".mom.lock")
	res = w.mom("", "import", old, w.dir, "--adapter", "slack-acme", "--merge")
	if res.code != 0 || !strings.Contains(res.stdout, "C0GENERAL → slack-acme/C0GENERAL: unchanged (imported before)") ||
		!strings.Contains(res.stdout, "D0ADADM   → slack-acme/D0ADADM: merged: nothing newer than its newest line") {
		t.Fatalf("a second merge exited %d\n%s", res.code, res.stdout)
	}
	if treeHash(t, w.dir, ".mom.lock") != beforeData {
		t.Fatal("a second merge changed the data directory")
	}
}

// TestImportHostileOldDir: the original's sandbox let commands write its data directory, so
// it may hold links out of it, named pipes and huge sparse files. The import follows no link
// (a secret beside the old directory reaches no file of the new one), opens no pipe (it
// finishes), copies nothing huge, names each in the summary, and leaves the old directory as
// it was.
func TestImportHostileOldDir(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	old := oldDir(t)
	outside := t.TempDir()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(os.WriteFile(filepath.Join(outside, "secret.txt"), []byte("TOPSECRET\n"), 0o600))
	must(os.MkdirAll(filepath.Join(outside, "C0OUT", "attachments"), 0o755))
	must(os.WriteFile(filepath.Join(outside, "C0OUT", "log.jsonl"),
		[]byte(`{"date":"2025-11-26T10:40:00.000Z","ts":"1764153600.000100","user":"U0BEA","userName":"bea","text":"TOPSECRET","attachments":[],"isBot":false}`+"\n"), 0o644))
	must(os.Symlink(filepath.Join(outside, "C0OUT"), filepath.Join(old, "C0LINKED")))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(old, "C0GENERAL", "scratch", "secret")))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(old, "C0GENERAL", "attachments", "1764158400000_plants.png")))
	must(os.Symlink(outside, filepath.Join(old, "skills", "evil")))
	must(os.Symlink(filepath.Join(outside, "secret.txt"), filepath.Join(old, "events", "linked.json")))
	must(syscall.Mkfifo(filepath.Join(old, "C0GENERAL", "scratch", "pipe"), 0o644))
	must(syscall.Mkfifo(filepath.Join(old, "events", "pipe.json"), 0o644))
	must(os.MkdirAll(filepath.Join(old, "C0PIPE"), 0o755))
	must(syscall.Mkfifo(filepath.Join(old, "C0PIPE", "log.jsonl"), 0o644))
	for _, p := range []string{"C0GENERAL/attachments/1764153840124_huge.iso", "C0GENERAL/scratch/huge.bin"} {
		f, err := os.Create(filepath.Join(old, p))
		must(err)
		must(f.Truncate(100 << 30)) // sparse: 100 GiB that cost nothing
		f.Close()
	}
	before := treeHash(t, old)

	res := w.mom("", "import", old, w.dir, "--adapter", "slack-acme")
	if res.code != 1 {
		t.Fatalf("import exited %d, want 1 (C0PIPE fails)\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	mustContain(t, "the summary", res.stdout,
		"C0GENERAL → slack-acme/C0GENERAL: imported",
		"C0PIPE    → slack-acme/C0PIPE: failed: its log.jsonl is a named pipe; mom does not follow it",
		"C0LINKED: is a symbolic link; not followed or copied",
		"C0GENERAL/scratch/secret: is a symbolic link; not followed or copied",
		"C0GENERAL/scratch/pipe: is a named pipe; not copied",
		"C0GENERAL/attachments/1764158400000_plants.png: is a symbolic link; not followed or copied",
		"C0GENERAL/attachments/1764153840124_huge.iso: is 100 GiB, more than the 1.0 GiB the import copies",
		"C0GENERAL/scratch/huge.bin: is 100 GiB, more than the 1.0 GiB the import copies",
		"skills/evil: is a symbolic link; not followed or copied",
		"events/linked.json: is a symbolic link; not followed or copied",
		"events/pipe.json: is a named pipe; not copied")
	if after := treeHash(t, old); after != before {
		t.Fatalf("the old directory changed:\nbefore:\n%s\nafter:\n%s", before, after)
	}
	err := filepath.WalkDir(w.dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, _ := d.Info()
		switch {
		case strings.HasPrefix(d.Name(), ".import-"):
			t.Errorf("a staging directory was left: %s", p)
		case !d.IsDir() && !info.Mode().IsRegular():
			t.Errorf("the import made something other than a file or directory: %s (%v)", p, info.Mode())
		case info.Mode().IsRegular() && info.Size() > 1<<20:
			t.Errorf("a large file was copied: %s (%d bytes)", p, info.Size())
		case info.Mode().IsRegular():
			if b, _ := os.ReadFile(p); bytes.Contains(b, []byte("TOPSECRET")) {
				t.Errorf("%s holds what a link in the old directory pointed at", p)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(w.channelDir("slack-acme", "C0LINKED")); err == nil {
		t.Error("a channel behind a link was imported")
	}
	// The plants.png line says the file is not there, rather than pointing at the link.
	msgs := readLog(t, filepath.Join(w.channelDir("slack-acme", "C0GENERAL"), "log.jsonl"))
	if a := msgs[len(msgs)-1].Attachments; len(a) != 1 || a[0].LocalPath != "" {
		t.Errorf("the linked attachment: %+v", a)
	}
}

// TestImportThenSlackContinues: after the import, a mention in Slack runs with the old
// context: the model gets the original's compaction summary, the turns it kept (the tool call
// and its result paired), the line said after the original's last run, and the new message,
// each once; nothing the compaction summarized.
func TestImportThenSlackContinues(t *testing.T) {
	t.Parallel()
	sw := newSlackWorld(t, "")
	old := oldDir(t)
	res := sw.mom("", "import", old, sw.dir, "--adapter", "acme")
	if res.code != 0 {
		t.Fatalf("import exited %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	if strings.Contains(res.stdout, `"adapters": {`) {
		t.Errorf("the summary shows adapter lines for an adapter config.json has:\n%s", res.stdout)
	}
	sw.llm.Enqueue(fakellm.Text("It is tangerine."))
	sw.run()
	sw.slack.Say(general, adaID, "<@"+slackBot+"> what was the launch code again?")
	sw.botSays(general, "", "It is tangerine.")
	req := sw.waitRequests(1)[0]
	var got []string
	for _, m := range req.Messages {
		for _, b := range m.Content {
			switch b.Type {
			case "text":
				got = append(got, m.Role+": "+b.Text)
			case "tool_use":
				got = append(got, m.Role+": tool_use "+b.ID)
			case "tool_result":
				got = append(got, m.Role+": tool_result "+b.ToolUseID+" "+b.Text)
			}
		}
	}
	all := strings.Join(got, "\n")
	mustContain(t, "the model's request", all,
		"user: The conversation history before this point was compacted into the following summary:\n\n<summary>\n## Goal\nKeep the build green.",
		"assistant: tool_use toolu_01IMPORTED", "user: tool_result toolu_01IMPORTED BUILD OK\nall 412 tests passed",
		"assistant: Build is green. The launch code is tangerine.",
		"user: [bea]: did anyone water the plants?")
	for _, once := range []string{"[ada]: thanks mom", "[bea]: did anyone water the plants?", "The launch code is tangerine."} {
		if n := strings.Count(all, once); n != 1 {
			t.Errorf("%q is in the request %d times, want once:\n%s", once, n, all)
		}
	}
	if strings.Contains(all, "hello from the first version") || strings.Contains(all, "[bea]: morning all") {
		t.Errorf("the request holds what the original's compaction summarized:\n%s", all)
	}
	if last := got[len(got)-1]; !strings.HasSuffix(last, "[ada]: what was the launch code again?") {
		t.Errorf("the request ends with %q, not the mention", last)
	}
	sw.stop()
}

// TestImportIntoWebChat: imported into a web chat, the channels take lowercase names and the
// page shows their history, as `mom download` does.
func TestImportIntoWebChat(t *testing.T) {
	t.Parallel()
	ww := newWebWorld(t, "", "")
	old := oldDir(t)
	res := ww.mom("", "import", old, ww.dir, "--adapter", "web")
	if res.code != 0 {
		t.Fatalf("import exited %d\n%s\n%s", res.code, res.stdout, res.stderr)
	}
	mustContain(t, "the summary", res.stdout, "C0GENERAL → web/c0general: imported", "D0ADADM   → web/d0adadm: imported")
	if strings.Contains(res.stdout, "slack-manifest") || strings.Contains(res.stdout, `"adapters": {`) {
		t.Errorf("Slack steps for a web chat:\n%s", res.stdout)
	}
	res = ww.mom("", "download", ww.dir, "web/c0general")
	mustContain(t, "the transcript", res.stdout, "] ada: can you check the build log?\n", "] mom: Build is green. The launch code is tangerine.\n")

	// Into a new directory, "web" is the web chat of the config.json mom will write.
	res = ww.mom("", "import", old, filepath.Join(t.TempDir(), "fresh"), "--adapter", "web")
	mustContain(t, "the summary of an import into a new directory", res.stdout, "C0GENERAL → web/c0general: imported")

	ww.run()
	page := ww.openTab().Load("c0general")
	mustContain(t, "the page", page, "hello from the first version\nmorning all\ncan you check the build log?\n_Reading the log_\nBuild is green. The launch code is tangerine.\nthanks mom\nYou're welcome.\ndid anyone water the plants?")
	_, body := ww.request("GET", "/api/channels", ww.token, nil, nil)
	mustContain(t, "the channel list", body, `"c0general"`, `"d0adadm"`)
	ww.stop()
}

// TestStartupNamesTheOriginalsLayout: started on a directory that holds the original's
// channel directories, mom says once what they are and how to import them, rather than
// starting as if there were no history.
func TestStartupNamesTheOriginalsLayout(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	if err := os.CopyFS(filepath.Join(w.dir, "C0GENERAL"), os.DirFS("testdata/pimom/C0GENERAL")); err != nil {
		t.Fatal(err)
	}
	w.llm.Enqueue(fakellm.Text("Hello."))
	res := w.ask("hi")
	mustContain(t, "the log", res.stderr, "holds channels of pi's original mom", "channels=C0GENERAL", "mom import "+w.dir+" <new-data-dir> --adapter <name>")
	if n := strings.Count(res.stderr, "pi's original mom"); n != 1 {
		t.Errorf("said %d times:\n%s", n, res.stderr)
	}
}
