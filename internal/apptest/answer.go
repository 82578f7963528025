package apptest

import (
	"fmt"
	"strings"
)

// LongAnswer is a markdown answer of at least n bytes, with a code block of 30 lines every 40
// paragraphs: long enough for every platform to split it, with fences to cut. Unlike
// rendertest.LongAnswer it holds only plain words and code, which every platform shows as
// written, so an end-to-end test can compare what people see word for word.
func LongAnswer(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i%40 == 0 {
			b.WriteString("```\n")
			for j := range 30 {
				fmt.Fprintf(&b, "code line %d.%d\n", i, j)
			}
			b.WriteString("```\n\n")
		}
		fmt.Fprintf(&b, "Paragraph %d of a long answer, with enough words to be a paragraph.\n\n", i)
	}
	return b.String()
}
