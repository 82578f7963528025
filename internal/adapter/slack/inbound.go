package slack

import (
	"context"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"strconv"
	"strings"
	"time"

	slackgo "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/mom-agent/mom/internal/adapter/fetch"
	"github.com/mom-agent/mom/internal/chat"
)

// message is a Slack message reduced to what mom needs, whether it came as a message event,
// an app_mention event or from conversations.history.
type message struct {
	channel, channelType string
	ts, threadTS         string
	user, botID, subtype string
	text                 string
	files                []slackgo.File
}

// inbound picks the events that carry a message people wrote; ok is false for everything else
// (edits, deletions, joins, the bot's own posts, other event types).
func (a *Adapter) inbound(data any) (message, bool) {
	var m message
	switch e := data.(type) {
	case *slackevents.MessageEvent:
		m = message{channel: e.Channel, channelType: e.ChannelType, ts: e.TimeStamp, threadTS: e.ThreadTimeStamp,
			user: e.User, botID: e.BotID, subtype: e.SubType, text: e.Text}
		if e.Message != nil {
			m.files = e.Message.Files
			if m.botID == "" {
				m.botID = e.Message.BotID
			}
		}
	case *slackevents.AppMentionEvent:
		m = message{channel: e.Channel, ts: e.TimeStamp, threadTS: e.ThreadTimeStamp, user: e.User,
			botID: e.BotID, text: e.Text, files: e.Files}
	default:
		return m, false
	}
	return m, a.wanted(m)
}

// wanted says whether a message belongs in the log: what people and other bots wrote, files
// they shared, replies broadcast to the channel. The bot's own posts are logged by the agent
// itself, and edits, deletions and join notices are not conversation.
func (a *Adapter) wanted(m message) bool {
	switch m.subtype {
	case "", "file_share", "thread_broadcast", "bot_message", "me_message":
	default:
		return false
	}
	if m.channel == "" || m.ts == "" {
		return false
	}
	a.mu.Lock()
	own := m.user == a.bot.ID || (m.botID != "" && m.botID == a.botID)
	a.mu.Unlock()
	if own {
		return false
	}
	return m.user != "" || m.botID != ""
}

// convert turns m into a chat.Message and downloads its files; ok is false when it holds
// nothing anyone could read.
func (a *Adapter) convert(ctx context.Context, m message) (cm chat.Message, ok bool, err error) {
	ts, err := parseTS(m.ts)
	if err != nil {
		return cm, false, fmt.Errorf("message %s in %s: %w", m.ts, m.channel, err)
	}
	a.mu.Lock()
	bot := a.bot
	a.mu.Unlock()
	sender := a.dir.sender(ctx, m.user, m.botID)
	kind := a.kindOf(ctx, m.channel, m.channelType)
	dm := kind == chat.KindDM
	text, mentioned := a.fromSlack(m.text, bot.ID)
	cm = chat.Message{
		ID: m.ts, ChannelID: m.channel, TS: ts, Sender: sender, Text: text,
		IsMention: mentioned || dm, IsDM: dm, IsGroupDM: kind == chat.KindGroup,
	}
	if text != m.text {
		cm.RawText = m.text
	}
	if m.threadTS != "" && m.threadTS != m.ts {
		cm.ReplyTo = m.threadTS
	}
	for _, f := range m.files {
		cm.Attachments = append(cm.Attachments, a.download(ctx, m.channel, ts, f))
	}
	return cm, strings.TrimSpace(cm.Text) != "" || len(cm.Attachments) > 0, nil
}

// parseTS reads Slack's "1700000000.123456" message timestamps.
func parseTS(ts string) (time.Time, error) {
	sec, frac, _ := strings.Cut(ts, ".")
	s, err := strconv.ParseInt(sec, 10, 64)
	if err != nil {
		return time.Time{}, fmt.Errorf("unreadable Slack timestamp %q", ts)
	}
	var us int64
	if frac != "" {
		frac = (frac + "000000")[:6]
		if us, err = strconv.ParseInt(frac, 10, 64); err != nil {
			return time.Time{}, fmt.Errorf("unreadable Slack timestamp %q", ts)
		}
	}
	return time.Unix(s, us*1000).UTC(), nil
}

// mustTS parses a Slack timestamp, reading an unreadable one as the zero time.
func mustTS(ts string) time.Time {
	t, _ := parseTS(ts)
	return t
}

// formatTS writes t as a Slack timestamp, for conversations.history's oldest.
func formatTS(t time.Time) string {
	return fmt.Sprintf("%d.%06d", t.Unix(), t.Nanosecond()/1000)
}

// download saves a shared file into the channel's attachments. Slack's download addresses
// need the bot token, which goes only to Slack's own servers (hosts).
func (a *Adapter) download(ctx context.Context, channel string, ts time.Time, f slackgo.File) chat.Attachment {
	file := fetch.File{Name: f.Name, MimeType: f.Mimetype, Size: int64(f.Size)}
	if file.Name == "" {
		file.Name = f.Title
	}
	if file.Name == "" {
		file.Name = f.ID
	}
	url := f.URLPrivateDownload
	if url == "" {
		url = f.URLPrivate
	}
	switch {
	case f.Mode == "tombstone" || f.Mode == "hidden_by_limit":
		file.Gone = errors.New("Slack no longer makes this file available")
	case url == "":
		file.Gone = errors.New("Slack gave no download address for the file")
	}
	return a.fetch.Save(ctx, channel, ts, file, func(ctx context.Context) (io.ReadCloser, error) {
		auth := http.Header{"Authorization": {"Bearer " + a.opts.Config.BotToken}}
		resp, err := a.fetch.Get(ctx, url, auth, "Slack")
		if err != nil {
			return nil, err
		}
		// Without the files:read scope Slack answers with its sign-in page instead of the file.
		if ct, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type")); ct == "text/html" && !strings.Contains(f.Mimetype, "html") {
			resp.Body.Close()
			return nil, errors.New("Slack sent its sign-in page instead of the file; the app needs the files:read scope (see `mom slack-manifest`)")
		}
		return resp.Body, nil
	})
}

// hosts are Slack's servers for files: slack.com and every host under it (files are on
// files.slack.com), and the API's own address when config.json names one (apiUrl).
func hosts(apiURL string) fetch.Hosts {
	return fetch.Hosts{Domains: []string{"slack.com"}, API: apiURL}
}
