package render

import "testing"

func TestTextWidth(t *testing.T) {
	tests := []struct {
		s    string
		want int
	}{
		{"", 0},
		{"plain", 5},
		{"ünïcödé", 7},
		{"e\u0301 Cafe\u0301", 6}, // combining accents draw on the letter before
		{"日本語", 6},
		{"你好，世界", 10}, // the fullwidth comma too
		{"こんにちは", 10},
		{"안녕", 4},
		{"ＡＢＣ１", 8},
		{"😀", 2},
		{"👍🏽", 2},  // skin tone
		{"❤️", 2},  // text symbol shown as emoji
		{"❤", 1},   // the same symbol as text
		{"👩‍💻", 2}, // joined into one emoji
		{"🇯🇵", 2},  // a flag: two regional indicators
		{"a\u200bb\u2060c", 3},
	}
	for _, tc := range tests {
		if got := textWidth(tc.s); got != tc.want {
			t.Errorf("textWidth(%q) = %d, want %d", tc.s, got, tc.want)
		}
	}
}
