package telegram_test

import (
	"strings"
	"testing"
	"time"

	fakellm "github.com/mom-agent/mom/internal/fake/llm"
)

// TestTelegramMessagesFromMomsFirstSecond: Telegram dates messages in whole seconds, so a
// message sent while mom was down, in the second it then starts in, is dated as if sent with
// start-up. It waited all the same, and the model hears so; one sent once mom listens, in
// that same second or later, did not.
func TestTelegramMessagesFromMomsFirstSecond(t *testing.T) {
	t.Parallel()
	w := newTelegramWorld(t, "")
	w.LLM.Enqueue(fakellm.Text("sorry for the wait"), fakellm.Text("right away"))
	// Asked just after a second begins, so that mom most likely starts in the second the
	// message is dated in: the case whole seconds blur. If it starts in the next one, the
	// message plainly waited, and the test holds all the same.
	for s := time.Now().Unix(); time.Now().Unix() == s; {
		time.Sleep(time.Millisecond)
	}
	w.tg.Say(ada, ada, "asked while mom was down")
	w.run()
	w.botSays(ada, 0, "sorry for the wait")
	w.WaitLog("run finished") // the answer shows before the run ends; asked earlier, it would wait
	w.tg.Say(ada, ada, "asked while mom listens")
	w.botSays(ada, 0, "right away")

	reqs := w.LLM.Requests()
	if got := reqs[0].LastUserText(); !strings.Contains(got, "while you were restarting") {
		t.Errorf("the message that waited reached the model as if just sent: %q", got)
	}
	if got := reqs[len(reqs)-1].LastUserText(); strings.Contains(got, "while you were restarting") {
		t.Errorf("a message sent while mom listened reached the model as one that waited: %q", got)
	}
}
