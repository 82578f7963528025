package fakeslack_test

import (
	"bytes"
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/slack-go/slack"

	fakeslack "github.com/mom-agent/mom/internal/fake/slack"
)

func TestUploadFile(t *testing.T) {
	srv := start(t)
	api := client(srv)
	parent := srv.Say("C1", "U1", "make a report", fakeslack.Silently())
	content := "col1,col2\n1,2\n"
	sum, err := api.UploadFileContext(ctxT(t), slack.UploadFileParameters{
		Filename: "report.csv", FileSize: len(content), Reader: strings.NewReader(content),
		Title: "The report", Channel: "C1", ThreadTimestamp: parent, InitialComment: "here it is"})
	if err != nil {
		t.Fatal(err)
	}
	if sum.ID == "" || sum.Title != "The report" {
		t.Errorf("summary = %+v", sum)
	}
	ups := srv.Uploads()
	if len(ups) != 1 || ups[0].Channel != "C1" || ups[0].ThreadTS != parent || ups[0].Filename != "report.csv" ||
		ups[0].Title != "The report" || string(ups[0].Content) != content || ups[0].InitialComment != "here it is" {
		t.Errorf("Uploads = %+v", ups)
	}
	rs := srv.Replies("C1", parent)
	if len(rs) != 1 || rs[0].User != "U0BOT" || rs[0].Text != "here it is" || len(rs[0].Files) != 1 || rs[0].Files[0].ID != sum.ID {
		t.Fatalf("Replies = %+v", rs)
	}

	// The file is in the thread as the bot's message and downloads with the bot token.
	msgs, _, _, err := api.GetConversationRepliesContext(ctxT(t), &slack.GetConversationRepliesParameters{ChannelID: "C1", Timestamp: parent})
	if err != nil || len(msgs) != 2 || len(msgs[1].Files) != 1 {
		t.Fatalf("replies = %+v, %v", msgs, err)
	}
	f := msgs[1].Files[0]
	if f.Name != "report.csv" || f.Size != len(content) || f.Mimetype != "text/csv" {
		t.Errorf("file = %+v", f)
	}
	var buf bytes.Buffer
	if err := api.GetFileContext(ctxT(t), f.URLPrivateDownload, &buf); err != nil || buf.String() != content {
		t.Errorf("download = %q, %v", buf.String(), err)
	}
	info, _, _, err := api.GetFileInfoContext(ctxT(t), sum.ID, 0, 0)
	if err != nil || info.Title != "The report" {
		t.Errorf("files.info = %+v, %v", info, err)
	}
	noViolations(t, srv)
	if d := srv.Downloads(); len(d) != 1 || d[0] != sum.ID {
		t.Errorf("Downloads = %v", d)
	}

	// Without the token a client lands on the sign-in page, like a browser.
	res, err := http.Get(f.URLPrivate)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != 200 || !strings.HasPrefix(res.Header.Get("Content-Type"), "text/html") || !strings.Contains(string(page), "<html") {
		t.Errorf("download without token: %d %s %q", res.StatusCode, res.Header.Get("Content-Type"), page)
	}
	// slack-go notices the sign-in redirect when its token cannot read the file.
	other := slack.New("xoxb-other", slack.OptionAPIURL(srv.URL()))
	if err := other.GetFileContext(ctxT(t), f.URLPrivateDownload, io.Discard); err == nil || !strings.Contains(err.Error(), "sign-in") {
		t.Errorf("download with a wrong token: %v", err)
	}
	if v := srv.Violations(); len(v) != 2 {
		t.Errorf("violations = %q, want two downloads without the bot token", v)
	}
}

func TestUploadWithoutChannel(t *testing.T) {
	srv := start(t)
	sum, err := client(srv).UploadFileContext(ctxT(t), slack.UploadFileParameters{
		Filename: "a.txt", FileSize: 3, Content: "abc"})
	if err != nil {
		t.Fatal(err)
	}
	if ups := srv.Uploads(); len(ups) != 1 || ups[0].Channel != "" || ups[0].FileID != sum.ID || ups[0].Title != "a.txt" {
		t.Errorf("Uploads = %+v", ups)
	}
	if ms := srv.Messages("C1"); len(ms) != 0 {
		t.Errorf("an unshared upload posted %+v", ms)
	}
	noViolations(t, srv)
}

func TestUploadLengthMismatch(t *testing.T) {
	srv := start(t)
	api := client(srv)
	u, err := api.GetUploadURLExternalContext(ctxT(t), slack.GetUploadURLExternalParameters{FileName: "a.txt", FileSize: 10})
	if err != nil {
		t.Fatal(err)
	}
	status, _, body := post(t, u.UploadURL, "application/octet-stream", "", "abc")
	if status != 200 || body != "OK - 3" {
		t.Errorf("raw upload: %d %q", status, body)
	}
	if v := srv.Violations(); len(v) != 1 || !strings.Contains(v[0], "declared length 10") {
		t.Errorf("violations = %q", v)
	}
	_, err = api.CompleteUploadExternalContext(ctxT(t), slack.CompleteUploadExternalParameters{
		Files: []slack.FileSummary{{ID: "F404"}}, Channel: "C1"})
	if slackErr(err) != "file_not_found" {
		t.Errorf("completing an unknown file: %v", err)
	}
}

func TestSayWithFile(t *testing.T) {
	srv := start(t)
	ts := srv.Say("D1", "U1", "look", fakeslack.WithFile(fakeslack.File{Name: "pic.png", Content: []byte("\x89PNG")}))
	res, err := client(srv).GetConversationHistoryContext(ctxT(t), &slack.GetConversationHistoryParameters{ChannelID: "D1"})
	if err != nil || len(res.Messages) != 1 {
		t.Fatalf("history = %+v, %v", res, err)
	}
	m := res.Messages[0]
	if m.Timestamp != ts || m.SubType != "file_share" || len(m.Files) != 1 || m.Files[0].Mimetype != "image/png" {
		t.Fatalf("message = %+v", m.Msg)
	}
	var buf bytes.Buffer
	if err := client(srv).GetFileContext(ctxT(t), m.Files[0].URLPrivateDownload, &buf); err != nil || buf.String() != "\x89PNG" {
		t.Errorf("download = %q, %v", buf.String(), err)
	}
	noViolations(t, srv)
}
