package store

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"mime"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mom-agent/mom/internal/chat"
)

// ErrTooLarge is wrapped by SaveAttachment's error for a file over the size limit.
var ErrTooLarge = errors.New("file too large")

// maxNameLen caps the sanitized part of an attachment's file name, so that with the time
// prefix and a -N suffix it stays well under the 255 bytes file systems allow.
const maxNameLen = 120

// SaveAttachment stores a file that came with a message as attachments/<unix ms>_<name>,
// where name is the sender's file name reduced to letters, digits, '.', '_' and '-', and
// returns its description for the log. An existing file is never overwritten: -2, -3 …
// go before the extension instead. The file appears whole or not at all: it is written to a
// temporary file, synced, and then linked into place. A file over maxBytes (if positive) is
// not kept, and the error wraps ErrTooLarge.
func (c *ChannelDir) SaveAttachment(name string, ts time.Time, r io.Reader, maxBytes int64) (chat.Attachment, error) {
	if err := c.ready(); err != nil {
		return chat.Attachment{}, err
	}
	tmp, tmpName, err := c.fs.CreateTemp(attachmentsDir, ".incoming-*")
	if err != nil {
		return chat.Attachment{}, fmt.Errorf("save attachment %q of channel %s: %w", name, c.Key(), err)
	}
	defer c.fs.Remove(tmpName) // after the link, or on failure

	var head sniffer
	src := r
	if maxBytes > 0 {
		src = io.LimitReader(r, maxBytes+1)
	}
	n, err := io.Copy(tmp, io.TeeReader(src, &head))
	if err == nil && maxBytes > 0 && n > maxBytes {
		err = fmt.Errorf("%q is larger than the limit of %d bytes: %w", name, maxBytes, ErrTooLarge)
	}
	if err == nil {
		err = tmp.Sync() // on disk before the log line that points at it can be
	}
	if err == nil {
		err = tmp.Chmod(0o644)
	}
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return chat.Attachment{}, fmt.Errorf("save attachment of channel %s: %w", c.Key(), err)
	}

	final, err := c.claimName(tmpName, fmt.Sprintf("%d_%s", ts.UnixMilli(), sanitizeName(name)))
	if err != nil {
		return chat.Attachment{}, fmt.Errorf("save attachment %q of channel %s: %w", name, c.Key(), err)
	}
	c.fs.SyncDir(attachmentsDir)
	return chat.Attachment{
		Filename:  name,
		LocalPath: attachmentsDir + "/" + final,
		MimeType:  MimeType(final, head.buf),
		Size:      n,
	}, nil
}

// attachmentsDir is where a channel's files are, in its directory.
const attachmentsDir = "attachments"

// claimName moves tmp (a name in the channel's directory) into attachments/ under base, or
// base with -2, -3 … before its extension, the first name that is free. A hard link fails
// rather than replace an existing file, which makes taking the name atomic.
func (c *ChannelDir) claimName(tmp, base string) (string, error) {
	ext := filepath.Ext(base)
	stem := strings.TrimSuffix(base, ext)
	for k := 1; k <= 10000; k++ {
		name := base
		if k > 1 {
			name = fmt.Sprintf("%s-%d%s", stem, k, ext)
		}
		path := attachmentsDir + "/" + name
		err := c.fs.Link(tmp, path)
		if err == nil {
			return name, nil
		}
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		// Some file systems have no hard links: reserve the name, then rename over it.
		f, xerr := c.fs.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if errors.Is(xerr, fs.ErrExist) {
			continue
		}
		if xerr != nil {
			return "", err
		}
		f.Close()
		if err := c.fs.Rename(tmp, path); err != nil {
			c.fs.Remove(path)
			return "", err
		}
		return name, nil
	}
	return "", fmt.Errorf("no free name for %s in %s", base, attachmentsDir)
}

// OpenAttachment opens a file of the channel's attachments/ for reading, by the LocalPath
// its log line gives (attachments/<name>). Anything but a regular file directly in
// attachments/ is refused: a command may have swapped the file for a link to config.json.
func (c *ChannelDir) OpenAttachment(localPath string) (*os.File, error) {
	name, err := attachmentName(localPath)
	if err != nil {
		return nil, err
	}
	return c.fs.Open(attachmentsDir + "/" + name)
}

// RemoveAttachment removes a file of the channel's attachments/ (a link is removed, never
// what it points to).
func (c *ChannelDir) RemoveAttachment(localPath string) error {
	name, err := attachmentName(localPath)
	if err != nil {
		return err
	}
	return c.fs.Remove(attachmentsDir + "/" + name)
}

// attachmentName checks that localPath names a file directly in attachments/ and returns
// its name there.
func attachmentName(localPath string) (string, error) {
	name, ok := strings.CutPrefix(filepath.ToSlash(localPath), attachmentsDir+"/")
	if !ok || name == "" || strings.ContainsAny(name, "/\\\x00") || name == "." || name == ".." {
		return "", fmt.Errorf("%q is not a file in attachments/", localPath)
	}
	return name, nil
}

// sanitizeName reduces a sender's file name to a safe one: every character but ASCII letters,
// digits, '.', '_' and '-' becomes '_', leading dots go (no hidden files, no ".."), and a long
// name is cut keeping its extension.
func sanitizeName(name string) string {
	var b strings.Builder
	for _, r := range name {
		if r < 0x80 && (keep(byte(r))) {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	s := strings.TrimLeft(b.String(), ".")
	if strings.Trim(s, "._-") == "" {
		s = "file" + s
	}
	if len(s) > maxNameLen {
		ext := filepath.Ext(s)
		if len(ext) > 16 {
			ext = ""
		}
		s = s[:maxNameLen-len(ext)] + ext
	}
	return s
}

// MimeType names a file's type from its extension, or failing that from its first bytes (up
// to 512 are looked at), as the log's attachments give it.
func MimeType(name string, head []byte) string {
	if t := mime.TypeByExtension(strings.ToLower(filepath.Ext(name))); t != "" {
		if mt, _, err := mime.ParseMediaType(t); err == nil {
			return mt
		}
	}
	mt, _, _ := mime.ParseMediaType(http.DetectContentType(head))
	return mt
}

// sniffer keeps the first bytes written to it, for content sniffing.
type sniffer struct{ buf []byte }

func (s *sniffer) Write(p []byte) (int, error) {
	if room := 512 - len(s.buf); room > 0 {
		s.buf = append(s.buf, p[:min(room, len(p))]...)
	}
	return len(p), nil
}
