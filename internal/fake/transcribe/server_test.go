package faketranscribe

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"io"
	"mime/multipart"
	"net/http"
	"strings"
	"testing"
	"time"
)

// upload posts a file as a client of the API does and returns the status and body.
func upload(t *testing.T, url, key string, fields map[string]string, name string, data []byte) (int, string) {
	t.Helper()
	var body bytes.Buffer
	mw := multipart.NewWriter(&body)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	if name != "" {
		fw, _ := mw.CreateFormFile("file", name)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	req, _ := http.NewRequest("POST", url+"/audio/transcriptions", &body)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	if key != "" {
		req.Header.Set("Authorization", "Bearer "+key)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// TestTheAPIsShapes: the answers and errors are the documented ones.
func TestTheAPIsShapes(t *testing.T) {
	t.Parallel()
	s := New(WithAPIKey("sk-1"))
	defer s.Close()
	s.Default(Text("hello", 3))
	voice := OggOpus(3 * time.Second)
	model := map[string]string{"model": "whisper-1"}
	for _, c := range []struct {
		name, key string
		fields    map[string]string
		file      string
		data      []byte
		status    int
		want      string
	}{
		{"json", "sk-1", model, "v.ogg", voice, 200, `{"text":"hello","usage":{"seconds":3,"type":"duration"}}`},
		{"text", "sk-1", map[string]string{"model": "whisper-1", "response_format": "text"}, "v.ogg", voice, 200, "hello\n"},
		{"no key", "", model, "v.ogg", voice, 401, `"You didn't provide an API key.`},
		{"wrong key", "sk-wrong-key-99", model, "v.ogg", voice, 401, `"Incorrect API key provided: sk-*****y-99.`},
		{"no model", "sk-1", nil, "v.ogg", voice, 400, `"you must provide a model parameter"`},
		{"no file", "sk-1", model, "", nil, 400, `field required`},
		{"unsupported format", "sk-1", model, "v.amr", voice, 400, `"Invalid file format. Supported formats: ['flac', 'm4a', 'mp3', 'mp4', 'mpeg', 'mpga', 'oga', 'ogg', 'wav', 'webm']"`},
		{"not what its name says", "sk-1", model, "v.ogg", []byte("ID3 an mp3"), 400, `"The audio file could not be decoded or its format is not supported."`},
	} {
		status, body := upload(t, s.URL(), c.key, c.fields, c.file, c.data)
		if status != c.status || !strings.Contains(body, c.want) {
			t.Errorf("%s: %d %s\nwant %d with %s", c.name, status, body, c.status, c.want)
		}
		if status >= 400 {
			var e struct {
				Error struct{ Message, Type string } `json:"error"`
			}
			if json.Unmarshal([]byte(body), &e) != nil || e.Error.Message == "" || e.Error.Type == "" {
				t.Errorf("%s: not the API's error shape: %s", c.name, body)
			}
		}
	}
	if n := len(s.Requests()); n != 2 {
		t.Errorf("%d valid uploads recorded, want 2", n)
	}
}

// TestOggOpusPages: every page of a voice note starts with the capture pattern, carries its
// own checksum, and the last one ends the stream at the length asked for.
func TestOggOpusPages(t *testing.T) {
	t.Parallel()
	data := OggOpus(2500 * time.Millisecond)
	var granule uint64
	var pages int
	for off := 0; off < len(data); pages++ {
		p := data[off:]
		if !bytes.HasPrefix(p, []byte("OggS")) || len(p) < 27 {
			t.Fatalf("page %d at %d does not start with OggS", pages, off)
		}
		n := 27 + int(p[26])
		for _, l := range p[27 : 27+int(p[26])] {
			n += int(l)
		}
		page := bytes.Clone(p[:n])
		sum := binary.LittleEndian.Uint32(page[22:])
		binary.LittleEndian.PutUint32(page[22:], 0)
		if oggCRC(page) != sum {
			t.Errorf("page %d: checksum %08x, computed %08x", pages, sum, oggCRC(page))
		}
		granule = binary.LittleEndian.Uint64(p[6:14])
		if off+n == len(data) && p[5]&0x04 == 0 {
			t.Errorf("the last page does not end the stream")
		}
		off += n
	}
	if granule != 312+2500*48 {
		t.Errorf("last granule %d, want %d", granule, 312+2500*48)
	}
}

// TestOggCRC: Ogg's checksum is CRC-32 with 0x04c11db7, initial 0, no reflection and no final
// xor: the check value of "123456789" is that of CRC-32/POSIX (0x765e7680) without its final
// inversion.
func TestOggCRC(t *testing.T) {
	t.Parallel()
	if got := oggCRC([]byte("123456789")); got != ^uint32(0x765e7680) {
		t.Errorf("oggCRC = %08x, want %08x", got, ^uint32(0x765e7680))
	}
}
