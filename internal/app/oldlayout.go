package app

import (
	"log/slog"
	"strings"

	"github.com/mom-agent/mom/internal/confined"
	"github.com/mom-agent/mom/internal/pimport"
)

// warnOldLayout says once, at start-up, when the data directory or its workspace holds
// channel directories of pi's original mom (<dir>/<channel>/log.jsonl in the original's
// format): mom does not read that layout, and would otherwise start as if the history were
// not there. mom import brings it over.
func warnOldLayout(dataDir string, workspace confined.Dir, log *slog.Logger) {
	for _, d := range []confined.Dir{confined.Root(dataDir), workspace} {
		found := pimport.Find(d)
		if len(found) == 0 {
			continue
		}
		if len(found) > 5 {
			found = append(found[:5], "…")
		}
		log.Warn("this directory holds channels of pi's original mom, which mom does not read; bring them over into a data directory of mom's with mom import (README: Coming from pi's mom)",
			"dir", d.Path(), "channels", strings.Join(found, ", "), "run", "mom import "+d.Path()+" <new-data-dir> --adapter <name>")
		return
	}
}
