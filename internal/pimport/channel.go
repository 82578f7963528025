package pimport

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/mom-agent/mom/internal/chat"
	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/jsonl"
	"github.com/mom-agent/mom/internal/store"
)

// Outcome is what became of one old channel.
type Outcome string

// The outcomes of a channel.
const (
	Imported  Outcome = "imported"
	Unchanged Outcome = "unchanged" // imported before: its log already holds what the import would write
	Merged    Outcome = "merged"    // existed; the newer old lines were appended
	Refused   Outcome = "refused"   // existed with a history of its own, and Merge was not asked
	Failed    Outcome = "failed"
)

// ChannelResult is what the import did with one channel directory of the original.
type ChannelResult struct {
	Old     string // the directory's name in the old data directory
	Target  string // adapter/channel in mom
	Outcome Outcome
	Reason  string // why it was refused or failed
	// Lines were converted, Unconverted kept verbatim in log.unconverted.jsonl (or, over
	// jsonl.MaxLine, left out).
	Lines, Unconverted int
	Attachments        int // files copied into attachments/
	Files              int // other files copied (MEMORY.md, scratch/, skills/ ...)
	Appended           int // with Merge: lines appended to the existing log
	Memory             bool
	// Context says what became of context.jsonl, in words for the summary.
	Context string
	Notes   []Note
}

// unconvertedFile is where log lines the import cannot convert are kept, beside log.jsonl.
const unconvertedFile = "log.unconverted.jsonl"

// channel imports one channel directory of the original. Everything is written into a hidden
// staging directory beside the channel's place and renamed there when whole.
func (im *importer) channel(oldName string) ChannelResult {
	id := im.channelID(oldName)
	res := ChannelResult{Old: oldName, Target: im.o.Adapter + "/" + id}
	fail := func(err error) ChannelResult {
		res.Outcome, res.Reason = Failed, err.Error()
		return res
	}
	if im.o.AdapterType == "web" && !webName(id) {
		res.Outcome, res.Reason = Refused, "a web chat's channel names are lowercase letters, digits, - and _"
		return res
	}
	adComp, err := store.PathComponent(im.o.Adapter)
	if err != nil {
		return fail(err)
	}
	idComp, err := store.PathComponent(id)
	if err != nil {
		return fail(err)
	}
	parent := im.ws.Join("channels", adComp)
	if exists(parent, idComp) {
		if err := im.existingChannel(oldName, id, &res); err != nil {
			return fail(err)
		}
		return res
	}
	if err := parent.MkdirAll("", 0o755); err != nil {
		return fail(err)
	}
	removeStaged(parent, idComp)
	stageName := stagePrefix(idComp) + randomHex()
	if err := parent.MkdirAll(stageName, 0o755); err != nil {
		return fail(err)
	}
	defer func() {
		if exists(parent, stageName) {
			removeTree(parent, stageName)
		}
	}()
	stage := parent.Join(stageName)
	src := im.old.Join(oldName)
	notePath := func(n string) string { return path.Join(oldName, n) }

	files := im.inventory(src, &res, notePath)
	conv := &logConverter{oldName: oldName, channel: id, dm: im.slackDM(oldName), files: files, ids: make(map[string]int)}
	logEnd, err := im.convertLog(src, stage, conv, &res, notePath)
	if err != nil {
		return fail(err)
	}

	for _, name := range slices.Sorted(maps.Keys(files)) {
		what, why, err := placeFile(src, attachDir+"/"+name, stage, attachDir+"/"+name, maxFile)
		if err != nil {
			return fail(err)
		}
		if what == placedLeft {
			res.Notes = append(res.Notes, Note{Path: notePath(attachDir + "/" + name), Reason: why})
			continue
		}
		res.Attachments++
	}
	tc := treeCopy{src: src, dst: stage, notePath: notePath}
	err = tc.tree("", "", 1, func(name string) bool {
		return name == logFile || name == contextFile || name == attachDir || name == unconvertedFile
	})
	if err != nil {
		return fail(err)
	}
	res.Files, res.Notes = tc.copied, append(res.Notes, tc.notes...)
	res.Memory = isFile(stage, memoryFile)
	for _, d := range []string{attachDir, "scratch", skillsDir} {
		if err := stage.MkdirAll(d, 0o755); err != nil {
			return fail(err)
		}
	}
	if err := im.context(src, stage, parent.Join(idComp).Path(), logEnd, &res); err != nil {
		return fail(err)
	}
	if err := parent.Rename(stageName, idComp); err != nil {
		return fail(fmt.Errorf("could not move the imported channel into place: %w", err))
	}
	parent.SyncDir("")
	res.Outcome = Imported
	return res
}

// stagePrefix begins the name of the hidden directory a channel is staged in. mom's channel
// names never begin with a dot (store.PathComponent escapes it), so mom never takes it for a
// channel.
func stagePrefix(idComp string) string { return ".import-" + idComp + "-" }

// removeStaged removes what an import that was interrupted (killed, a power cut) left staged
// for the channel, before it is staged again.
func removeStaged(parent confined.Dir, idComp string) {
	entries, _ := parent.ReadDir("")
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), stagePrefix(idComp)) {
			if e.Type().IsDir() {
				removeTree(parent, e.Name())
			} else {
				parent.Remove(e.Name())
			}
		}
	}
}

// inventory lists the files of the old channel's attachments/ that can be copied, with what
// the log says of each; the others are noted.
func (im *importer) inventory(src confined.Dir, res *ChannelResult, notePath func(string) string) map[string]attachment {
	files := make(map[string]attachment)
	entries, err := src.ReadDir(attachDir)
	if errors.Is(err, fs.ErrNotExist) {
		return files
	}
	if err != nil {
		res.Notes = append(res.Notes, Note{Path: notePath(attachDir), Reason: reason(err)})
		return files
	}
	for _, e := range entries {
		name, rel := e.Name(), attachDir+"/"+e.Name()
		if !e.Type().IsRegular() {
			res.Notes = append(res.Notes, Note{Path: notePath(rel), Reason: leftOut(e.Type())})
			continue
		}
		if strings.HasPrefix(name, ".") || strings.ContainsRune(name, '\\') {
			res.Notes = append(res.Notes, Note{Path: notePath(rel), Reason: "is not a name mom gives attachments; not copied"})
			continue
		}
		f, err := src.Open(rel)
		if err != nil {
			res.Notes = append(res.Notes, Note{Path: notePath(rel), Reason: reason(err)})
			continue
		}
		st, err := f.Stat()
		if err == nil && st.Size() > maxFile {
			err = errors.New(tooBig(st.Size(), maxFile))
		}
		var head [512]byte
		n := 0
		if err == nil {
			n, err = io.ReadFull(f, head[:])
			if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
				err = nil
			}
		}
		f.Close()
		if err != nil {
			res.Notes = append(res.Notes, Note{Path: notePath(rel), Reason: reason(err)})
			continue
		}
		files[name] = attachment{size: st.Size(), mime: store.MimeType(name, head[:n])}
	}
	return files
}

// convertLog converts the old channel's log.jsonl into stage's, keeping the lines it cannot
// convert in log.unconverted.jsonl, and returns the new log's size. A channel without a log
// gets none.
func (im *importer) convertLog(src, stage confined.Dir, conv *logConverter, res *ChannelResult, notePath func(string) string) (int64, error) {
	st, err := src.Stat(logFile)
	if errors.Is(err, fs.ErrNotExist) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	if !st.Mode().IsRegular() {
		return 0, fmt.Errorf("its log.jsonl %s; mom does not follow it", confined.Kind(st.Mode().Type()))
	}
	if st.Size() > maxLog {
		return 0, fmt.Errorf("its log.jsonl is %s, more than the %s the import reads", bytesize(st.Size()), bytesize(maxLog))
	}
	// A new file written whole: buffered, in the bytes jsonl.File.Append writes.
	outFile, err := stage.OpenFile(logFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return 0, err
	}
	defer outFile.Close()
	out := bufio.NewWriterSize(outFile, 256<<10)
	var size int64
	var bad *bufio.Writer
	var badFile *os.File
	keep := func(line []byte) error {
		res.Unconverted++
		if bad == nil {
			f, err := stage.OpenFile(unconvertedFile, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
			if err != nil {
				return err
			}
			badFile, bad = f, bufio.NewWriter(f)
		}
		bad.Write(line)
		return bad.WriteByte('\n')
	}
	n := 0
	stats, err := jsonl.Scan(src, logFile, 0, func(line []byte, _, _ int64) error {
		if n++; n%4096 == 0 && im.ctx.Err() != nil {
			return im.ctx.Err()
		}
		m, ok := conv.convert(line)
		if !ok {
			return keep(line)
		}
		b, err := jsonl.Marshal(m)
		if err != nil {
			return keep(line) // a message no JSON holds (a time past year 9999)
		}
		out.Write(b)
		if err := out.WriteByte('\n'); err != nil {
			return err
		}
		size += int64(len(b)) + 1
		res.Lines++
		return nil
	})
	if err == nil && stats.TornTail > 0 && stats.TornTail <= jsonl.MaxLine {
		err = keepTornTail(src, stats, keep)
	}
	if stats.TooLong > 0 {
		res.Unconverted += stats.TooLong
		res.Notes = append(res.Notes, Note{Path: notePath(logFile), Reason: fmt.Sprintf("%d lines longer than %s were left out", stats.TooLong, bytesize(jsonl.MaxLine))})
	}
	if bad != nil {
		if ferr := bad.Flush(); err == nil {
			err = ferr
		}
		if cerr := badFile.Close(); err == nil {
			err = cerr
		}
	}
	if err == nil {
		err = out.Flush()
	}
	if err == nil {
		err = outFile.Sync()
	}
	if err != nil {
		return 0, fmt.Errorf("could not convert its log.jsonl: %w", err)
	}
	return size, nil
}

// keepTornTail keeps a last line without its newline (the original crashed mid-write) with
// the unconverted ones.
func keepTornTail(src confined.Dir, stats jsonl.Stats, keep func([]byte) error) error {
	f, err := src.Open(logFile)
	if err != nil {
		return err
	}
	defer f.Close()
	tail := make([]byte, stats.TornTail)
	if _, err := f.ReadAt(tail, stats.End); err != nil && !errors.Is(err, io.EOF) {
		return err
	}
	return keep(tail)
}

// existingChannel handles a channel that is in the workspace already: imported before
// (nothing to do), or with a history of its own, which is refused, or with Merge gets the old
// lines newer than its newest. The old log is converted into a private temporary directory
// outside the workspace to compare, so that an import run again touches nothing there.
func (im *importer) existingChannel(oldName, id string, res *ChannelResult) error {
	tmp, err := os.MkdirTemp("", "mom-import-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	stage, src := confined.Root(tmp), im.old.Join(oldName)
	notePath := func(n string) string { return path.Join(oldName, n) }
	files := im.inventory(src, res, notePath)
	conv := &logConverter{oldName: oldName, channel: id, dm: im.slackDM(oldName), files: files, ids: make(map[string]int)}
	if _, err := im.convertLog(src, stage, conv, res, notePath); err != nil {
		return err
	}
	ch, err := im.st.ChannelDir(im.o.Adapter, id)
	if err != nil {
		return err
	}
	return im.existing(ch, stage, src, res)
}

// existing compares the converted log in stage with the channel's, and appends to it with
// Merge (see existingChannel).
func (im *importer) existing(ch *store.ChannelDir, stage, src confined.Dir, res *ChannelResult) error {
	if prefix, err := isPrefix(stage, logFile, ch.Files(), logFile); err != nil {
		return err
	} else if prefix {
		res.Outcome = Unchanged
		return nil
	}
	if !im.o.Merge {
		res.Outcome = Refused
		res.Reason = res.Target + " exists already with a history of its own; --merge appends the old lines newer than its newest"
		return nil
	}
	var newest chat.Message
	err := ch.ReadLog(0, func(m chat.Message, _ store.LogPos) error {
		if m.TS.After(newest.TS) {
			newest = m
		}
		return nil
	})
	if err != nil {
		return err
	}
	res.Outcome = Merged
	_, err = jsonl.Scan(stage, logFile, 0, func(line []byte, _, _ int64) error {
		var m chat.Message
		if err := json.Unmarshal(line, &m); err != nil || !m.TS.After(newest.TS) {
			return nil
		}
		for i, a := range m.Attachments {
			if a.LocalPath == "" {
				continue
			}
			local, err := mergeAttachment(src, ch.Files(), a.LocalPath)
			if err != nil {
				return err
			}
			m.Attachments[i].LocalPath = local
			if local == "" {
				m.Attachments[i].Error = "the file could not be copied"
			} else {
				res.Attachments++
			}
		}
		if _, err := ch.AppendLog(m); err != nil {
			return err
		}
		res.Appended++
		return nil
	})
	return err
}

// mergeAttachment copies an old attachment into an existing channel's attachments/, under its
// name or, when a different file has it, name-2, -3 …; it returns where it is.
func mergeAttachment(src, dst confined.Dir, local string) (string, error) {
	ext := path.Ext(local)
	stem := strings.TrimSuffix(local, ext)
	for k := 1; k <= 100; k++ {
		name := local
		if k > 1 {
			name = fmt.Sprintf("%s-%d%s", stem, k, ext)
		}
		what, _, err := placeFile(src, local, dst, name, maxFile)
		switch {
		case err != nil:
			return "", err
		case what == placedNew || what == placedSame:
			return name, nil
		case what == placedLeft:
			return "", nil
		}
	}
	return "", nil
}

// isPrefix reports whether the file a of da is a byte-for-byte beginning of the file b of
// db: the channel was imported from this log before (and mom may have added to it since).
func isPrefix(da confined.Dir, a string, db confined.Dir, b string) (bool, error) {
	fa, err := da.Open(a)
	if errors.Is(err, fs.ErrNotExist) {
		return true, nil // nothing to import
	}
	if err != nil {
		return false, err
	}
	defer fa.Close()
	fb, err := db.Open(b)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	defer fb.Close()
	sa, err := fa.Stat()
	if err != nil {
		return false, err
	}
	return sameReaders(fa, io.LimitReader(fb, sa.Size()))
}

// slackDM reports whether the old channel is a Slack DM (its id starts with D), whose
// messages all address mom; in a web chat there are none.
func (im *importer) slackDM(old string) bool {
	return im.o.AdapterType != "web" && strings.HasPrefix(old, "D")
}

// webName reports whether id can name a web chat channel: at most 40 lowercase letters,
// digits, - and _, not starting with either of those (the web adapter's checkChannelName).
func webName(id string) bool {
	if len(id) > 40 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || i > 0 && (c == '-' || c == '_')) {
			return false
		}
	}
	return id != ""
}

func randomHex() string {
	var b [6]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
