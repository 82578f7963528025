//go:build !nowhatsapp

package whatsapp

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/skip2/go-qrcode"
)

var updateQR = flag.Bool("update-qr", false, "rewrite testdata/qr/*.txt")

// sampleCode has the shape of what WhatsApp asks a phone to scan: a reference, then the
// device's noise key, identity key and secret, base64 (these are made up).
const sampleCode = "2@Yk3nX0cJq9v5sR1tAeLmWzB8pQ4uHd7fGiKoNjE2lVx6yTr,7Hk0aQ2bZ9xW4cV1nM8sD3fL6gJ5pK0rT7yU2iO9eA=," +
	"Qm3Z8vB1nX6cT4yR9wE2uI7oP0aS5dF3gH8jK1lL4zM=,v9Rr2Lm7Qp4Ks1Tj8Hw3Yx6Nb0Cz5Ad2Fe9Gi4Ju7Ko="

// TestDrawQR: a fixed code is drawn as it always was (testdata/qr/sample.txt; -update-qr
// rewrites it after a deliberate change).
func TestDrawQR(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := drawQR(&b, sampleCode); err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "qr", "sample.txt")
	if *updateQR {
		if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatalf("%v (go test -run TestDrawQR -update-qr writes it)", err)
	}
	if b.String() != string(want) {
		t.Errorf("drawQR =\n%s\nwant\n%s", b.String(), want)
	}
}

// TestDrawQRReadsBack: every module of the code, its quiet zone included, is where the
// drawing puts it: two rows to a line, light modules as the blocks, dark ones as spaces.
func TestDrawQRReadsBack(t *testing.T) {
	t.Parallel()
	for _, code := range []string{sampleCode, "x", strings.Repeat("2@", 200)} {
		var b bytes.Buffer
		if err := drawQR(&b, code); err != nil {
			t.Fatal(err)
		}
		q, err := qrcode.New(code, qrcode.Low)
		if err != nil {
			t.Fatal(err)
		}
		bits := q.Bitmap()
		lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
		if len(lines) != (len(bits)+1)/2 {
			t.Fatalf("%d lines for %d rows", len(lines), len(bits))
		}
		for i, line := range lines {
			row := []rune(line)
			if len(row) != len(bits) {
				t.Fatalf("line %d is %d wide, the code %d", i, len(row), len(bits))
			}
			for x, r := range row {
				upper, lower := readBlock(t, r)
				wantLower := true // below the last row: the background
				if 2*i+1 < len(bits) {
					wantLower = bits[2*i+1][x]
				}
				if upper != bits[2*i][x] || lower != wantLower {
					t.Fatalf("%q: line %d column %d is %q", code, i, x, r)
				}
			}
		}
		// The quiet zone: four light rows above, so the first two lines are all blocks.
		if strings.Trim(lines[0]+lines[1], "█") != "" {
			t.Errorf("no quiet zone above the code:\n%s\n%s", lines[0], lines[1])
		}
	}
}

// readBlock is which halves of a drawn character are dark.
func readBlock(t *testing.T, r rune) (upperDark, lowerDark bool) {
	t.Helper()
	switch r {
	case '█':
		return false, false
	case '▀':
		return false, true
	case '▄':
		return true, false
	case ' ':
		return true, true
	}
	t.Fatalf("%q is not a half block", r)
	return false, false
}
