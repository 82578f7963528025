package config

import "time"

// Resume says what mom does at start-up with the work a restart interrupted (the "resume"
// section; the README's "Restarts"): runs that were killed before they ended, mentions that
// arrived while mom was down or starting, and one-shot wake-ups whose time passed meanwhile.
type Resume struct {
	// Within is how old such work may be and still be done: a run is started again, a
	// mention answered, a one-shot run. Older runs get their status message edited to say
	// they were interrupted; older mentions stay in the history as context only; older
	// one-shots are deleted. Zero does none of it.
	Within time.Duration
}

// maxResumeMinutes bounds "withinMinutes" at a week: an answer later than that is no answer.
const maxResumeMinutes = 7 * 24 * 60

var resumeKeys = []string{"withinMinutes"}

// DefaultResumeWithin is how recent interrupted work must be to be done after a restart when
// config.json does not say: long enough for a deploy, a crash loop's back-off or a laptop
// lid; short enough that an answer does not come out of the blue about something people have
// moved on from.
const DefaultResumeWithin = 30 * time.Minute

func (d *decoder) resume(o *object, r *Resume) {
	n, ok := o.int("withinMinutes", 0)
	if ok && n > maxResumeMinutes {
		d.fail(joinPath(o.path, "withinMinutes"), "must be at most %d (a week), got %d", maxResumeMinutes, n)
	} else if ok {
		r.Within = time.Duration(n) * time.Minute
	}
	o.finish(resumeKeys...)
}
