package tools

import (
	"bytes"
	"encoding/base64"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/llm"
)

func TestReadText(t *testing.T) {
	env := newEnv(t)
	writeFile(t, filepath.Join(env.Cwd, "ten.txt"), numbered(10))
	read := NewRead()

	for _, tc := range []struct {
		name string
		args map[string]any
		want string
	}{
		{"whole", map[string]any{"path": "ten.txt"}, strings.TrimSuffix(numbered(10), "\n")},
		{"offset", map[string]any{"path": "ten.txt", "offset": 8}, "8\n9\n10"},
		{"limit", map[string]any{"path": "ten.txt", "limit": 3}, "1\n2\n3\n\n[7 more lines in file. Use offset=4 to continue]"},
		{"offset and limit", map[string]any{"path": "ten.txt", "offset": 4, "limit": 2}, "4\n5\n\n[5 more lines in file. Use offset=6 to continue]"},
		{"limit to the end", map[string]any{"path": "ten.txt", "offset": 9, "limit": 2}, "9\n10"},
		{"limit past the end", map[string]any{"path": "ten.txt", "offset": 9, "limit": 5}, "9\n10"},
		{"absolute", map[string]any{"path": filepath.Join(env.Cwd, "ten.txt"), "offset": 10}, "10"},
	} {
		got, _ := mustText(t, read, env, tc.args)
		if got != tc.want {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

func TestReadTruncation(t *testing.T) {
	env := newEnv(t)
	read := NewRead()
	writeFile(t, filepath.Join(env.Cwd, "long.txt"), numbered(3000))

	got, res := mustText(t, read, env, map[string]any{"path": "long.txt"})
	want := strings.TrimSuffix(numbered(2000), "\n") + "\n\n[Showing lines 1-2000 of 3000. Use offset=2001 to continue]"
	if got != want {
		t.Errorf("text ends %q", got[max(0, len(got)-100):])
	}
	if d, ok := res.Details.(readDetails); !ok || d.Truncation.TruncatedBy != "lines" || d.Truncation.TotalLines != 3000 || d.Truncation.OutputLines != 2000 {
		t.Errorf("details %+v", res.Details)
	}
	got, _ = mustText(t, read, env, map[string]any{"path": "long.txt", "offset": 2001})
	if got != strings.TrimSuffix(numbered(3000)[len(numbered(2000)):], "\n") {
		t.Errorf("second page: %q", got[max(0, len(got)-100):])
	}
	got, _ = mustText(t, read, env, map[string]any{"path": "long.txt", "offset": 11, "limit": 2500})
	if !strings.HasPrefix(got, "11\n") || !strings.HasSuffix(got, "\n2010\n\n[Showing lines 11-2010 of 3000. Use offset=2011 to continue]") {
		t.Errorf("offset and limit over the cap: ends %q", got[max(0, len(got)-100):])
	}

	var wide strings.Builder
	for range 1000 {
		wide.WriteString(strings.Repeat("w", 99) + "\n")
	}
	writeFile(t, filepath.Join(env.Cwd, "wide.txt"), wide.String())
	got, res = mustText(t, read, env, map[string]any{"path": "wide.txt"})
	// 512 lines of 99 bytes and 511 newlines between them: 51199 bytes.
	if !strings.HasSuffix(got, strings.Repeat("w", 99)+"\n\n[Showing lines 1-512 of 1000 (50.0KB limit). Use offset=513 to continue]") {
		t.Errorf("byte limit: ends %q", got[max(0, len(got)-100):])
	}
	if d := res.Details.(readDetails); d.Truncation.TruncatedBy != "bytes" || d.Truncation.OutputBytes != 51199 {
		t.Errorf("details %+v", d)
	}
}

func TestReadHugeLine(t *testing.T) {
	env := newEnv(t)
	writeFile(t, filepath.Join(env.Cwd, "my big.txt"), "short\n"+strings.Repeat("y", 60*1024)+"\nafter\n")
	got, res := mustText(t, NewRead(), env, map[string]any{"path": "my big.txt", "offset": 2})
	want := "[Line 2 is 60.0KB, exceeds 50.0KB limit. Use bash: sed -n '2p' 'my big.txt' | head -c 51200]"
	if got != want {
		t.Errorf("text %q, want %q", got, want)
	}
	if d := res.Details.(readDetails); !d.Truncation.FirstLineExceedsLimit {
		t.Errorf("details %+v", d)
	}
	// The line before it is shown, and the notice says where to go on.
	got, _ = mustText(t, NewRead(), env, map[string]any{"path": "my big.txt"})
	if got != "short\n\n[Showing lines 1-1 of 3 (50.0KB limit). Use offset=2 to continue]" {
		t.Errorf("text %q", got)
	}
}

func TestReadErrors(t *testing.T) {
	env := newEnv(t)
	read := NewRead()
	writeFile(t, filepath.Join(env.Cwd, "ten.txt"), numbered(10))
	writeFile(t, filepath.Join(env.Cwd, "empty.txt"), "")
	writeFile(t, filepath.Join(env.Cwd, "bin.dat"), "ELF\x00\x01\x02")

	for _, tc := range []struct {
		args map[string]any
		want string
	}{
		{map[string]any{"path": "ten.txt", "offset": 11}, "Offset 11 is beyond end of file (10 lines total)"},
		{map[string]any{"path": "empty.txt", "offset": 2}, "Offset 2 is beyond end of file (0 lines total)"},
		{map[string]any{"path": "nope.txt"}, "File not found: nope.txt"},
		{map[string]any{"path": "."}, ". is a directory, not a file. Use bash (ls) to list it."},
		{map[string]any{"path": "bin.dat"}, "bin.dat looks like a binary file (it contains NUL bytes), so it is not shown as text. Use bash to inspect it, e.g. file, xxd bin.dat | head, or strings."},
	} {
		if got, _ := mustFail(t, read, env, tc.args); got != tc.want {
			t.Errorf("%v: %q, want %q", tc.args, got, tc.want)
		}
	}
	if got, _ := mustText(t, read, env, map[string]any{"path": "empty.txt"}); got != "(empty file)" {
		t.Errorf("empty file: %q", got)
	}
}

func TestReadCRLF(t *testing.T) {
	env := newEnv(t)
	writeFile(t, filepath.Join(env.Cwd, "dos.txt"), "a\r\nb\r\nc\r\n")
	got, _ := mustText(t, NewRead(), env, map[string]any{"path": "dos.txt", "limit": 2})
	if got != "a\r\nb\r\n\n[1 more lines in file. Use offset=3 to continue]" {
		t.Errorf("text %q", got)
	}
}

func pngBytes(t *testing.T) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 2, 2))
	img.Set(0, 0, color.RGBA{255, 0, 0, 255})
	var b bytes.Buffer
	if err := png.Encode(&b, img); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

func TestReadImage(t *testing.T) {
	env := newEnv(t)
	data := pngBytes(t)
	writeFile(t, filepath.Join(env.Cwd, "dot.PNG"), string(data))
	res, err := call(t, t.Context(), NewRead(), env, map[string]any{"path": "dot.PNG"})
	if err != nil {
		t.Fatal(err)
	}
	want := []llm.Content{llm.Text("Read image file [image/png]"), llm.Image(base64.StdEncoding.EncodeToString(data), "image/png")}
	if !reflect.DeepEqual(res.Content, want) {
		t.Errorf("content %+v", res.Content)
	}

	// A JPEG saved as .png is sent as what it is.
	var jb bytes.Buffer
	jpeg.Encode(&jb, image.NewGray(image.Rect(0, 0, 2, 2)), nil)
	writeFile(t, filepath.Join(env.Cwd, "liar.png"), jb.String())
	res, err = call(t, t.Context(), NewRead(), env, map[string]any{"path": "liar.png"})
	if err != nil || res.Content[1].MimeType != "image/jpeg" || res.Content[0].Text != "Read image file [image/jpeg]" {
		t.Errorf("mislabelled image: %+v, %v", res.Content, err)
	}
}

func TestReadImageTooLarge(t *testing.T) {
	env := newEnv(t)
	// 4 MB of file is about 5.3 MB base64, over the API's 5 MB.
	writeFile(t, filepath.Join(env.Cwd, "big.jpg"), string(make([]byte, 4<<20)))
	got, _ := mustFail(t, NewRead(), env, map[string]any{"path": "big.jpg"})
	if want := "Image big.jpg is 4.0MB (5.3MB base64-encoded), over the 5.0MB limit for one image sent to the model. Make it smaller first, e.g. scale it down with bash."; got != want {
		t.Errorf("error %q", got)
	}
}

func BenchmarkReadLargeFile(b *testing.B) {
	env := newEnv(b)
	var sb strings.Builder
	for sb.Len() < 16<<20 {
		sb.WriteString("a line of a large log file, about sixty bytes long.........\n")
	}
	writeFile(b, filepath.Join(env.Cwd, "big.log"), sb.String())
	read := NewRead()
	args := []byte(`{"label":"bench","path":"big.log","offset":1000}`)
	b.SetBytes(int64(sb.Len()))
	for b.Loop() {
		if _, err := read.Run(b.Context(), env, args); err != nil {
			b.Fatal(err)
		}
	}
}
