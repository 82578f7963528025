package metrics

import (
	"bytes"
	"testing"
)

// TestLabelValuesAreEscaped: a channel id or tool name with a quote, a backslash or a line
// break stays one well-formed series instead of breaking the scrape (or panicking the set).
func TestLabelValuesAreEscaped(t *testing.T) {
	t.Parallel()
	m := New(Options{PerChannel: true})
	m.Busy("web", "a\"b\\c\nd", "reject")
	var b bytes.Buffer
	m.set.WritePrometheus(&b)
	if want := "mom_busy_replies_total{adapter=\"web\",channel=\"a\\\"b\\\\c\\nd\",policy=\"reject\"} 1\n"; b.String() != want {
		t.Errorf("wrote %q\nwant %q", b.String(), want)
	}
}
