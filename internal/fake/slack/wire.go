package fakeslack

import (
	"encoding/json"
	"mime"
	"net/url"
	"path"
	"slices"
	"strings"
	"time"
)

// The JSON shapes below follow Slack's documentation of the message, user, conversation and
// file objects. They are the fake's own; it does not import a Slack client library.

type wireMsg struct {
	Type         string          `json:"type"`
	Subtype      string          `json:"subtype,omitempty"`
	Hidden       bool            `json:"hidden,omitempty"`
	Text         string          `json:"text"`
	User         string          `json:"user,omitempty"`
	BotID        string          `json:"bot_id,omitempty"`
	AppID        string          `json:"app_id,omitempty"`
	Username     string          `json:"username,omitempty"`
	BotProfile   *wireBotProfile `json:"bot_profile,omitempty"`
	ClientMsgID  string          `json:"client_msg_id,omitempty"`
	TS           string          `json:"ts"`
	ThreadTS     string          `json:"thread_ts,omitempty"`
	ParentUserID string          `json:"parent_user_id,omitempty"`
	Team         string          `json:"team,omitempty"`
	Blocks       json.RawMessage `json:"blocks,omitempty"`
	Files        []wireFile      `json:"files,omitempty"`
	Upload       *bool           `json:"upload,omitempty"`
	DisplayAsBot *bool           `json:"display_as_bot,omitempty"`
	Edited       *wireEdited     `json:"edited,omitempty"`
	Inviter      string          `json:"inviter,omitempty"`
	// Root is the thread's parent, on a reply also sent to the channel (thread_broadcast).
	Root *wireMsg `json:"root,omitempty"`

	// Thread parents.
	ReplyCount      int      `json:"reply_count,omitempty"`
	ReplyUsersCount int      `json:"reply_users_count,omitempty"`
	LatestReply     string   `json:"latest_reply,omitempty"`
	ReplyUsers      []string `json:"reply_users,omitempty"`
	IsLocked        *bool    `json:"is_locked,omitempty"`
	Subscribed      *bool    `json:"subscribed,omitempty"`

	// Events only.
	Channel     string `json:"channel,omitempty"`
	EventTS     string `json:"event_ts,omitempty"`
	ChannelType string `json:"channel_type,omitempty"`
}

type wireEdited struct {
	User string `json:"user"`
	TS   string `json:"ts"`
}

type wireBotProfile struct {
	ID      string            `json:"id"`
	Deleted bool              `json:"deleted"`
	Name    string            `json:"name"`
	Updated int64             `json:"updated"`
	AppID   string            `json:"app_id"`
	Icons   map[string]string `json:"icons"`
	TeamID  string            `json:"team_id"`
}

// wireChanged is a message event with subtype message_changed.
type wireChanged struct {
	Type            string   `json:"type"`
	Subtype         string   `json:"subtype"`
	Hidden          bool     `json:"hidden"`
	Message         *wireMsg `json:"message"`
	PreviousMessage *wireMsg `json:"previous_message"`
	Channel         string   `json:"channel"`
	TS              string   `json:"ts"`
	EventTS         string   `json:"event_ts"`
	ChannelType     string   `json:"channel_type"`
}

// wireDeleted is a message event with subtype message_deleted.
type wireDeleted struct {
	Type            string   `json:"type"`
	Subtype         string   `json:"subtype"`
	Hidden          bool     `json:"hidden"`
	Channel         string   `json:"channel"`
	TS              string   `json:"ts"`
	DeletedTS       string   `json:"deleted_ts"`
	EventTS         string   `json:"event_ts"`
	PreviousMessage *wireMsg `json:"previous_message"`
	ChannelType     string   `json:"channel_type"`
}

type wireUser struct {
	ID                string      `json:"id"`
	TeamID            string      `json:"team_id"`
	Name              string      `json:"name"`
	Deleted           bool        `json:"deleted"`
	Color             string      `json:"color,omitempty"`
	RealName          string      `json:"real_name,omitempty"`
	TZ                string      `json:"tz,omitempty"`
	TZLabel           string      `json:"tz_label,omitempty"`
	TZOffset          *int        `json:"tz_offset,omitempty"`
	Profile           wireProfile `json:"profile"`
	IsAdmin           bool        `json:"is_admin"`
	IsOwner           bool        `json:"is_owner"`
	IsPrimaryOwner    bool        `json:"is_primary_owner"`
	IsRestricted      bool        `json:"is_restricted"`
	IsUltraRestricted bool        `json:"is_ultra_restricted"`
	IsBot             bool        `json:"is_bot"`
	IsAppUser         bool        `json:"is_app_user"`
	Updated           int64       `json:"updated"`
}

type wireProfile struct {
	RealName              string `json:"real_name"`
	RealNameNormalized    string `json:"real_name_normalized"`
	DisplayName           string `json:"display_name"`
	DisplayNameNormalized string `json:"display_name_normalized"`
	BotID                 string `json:"bot_id,omitempty"`
	APIAppID              string `json:"api_app_id,omitempty"`
	AlwaysActive          bool   `json:"always_active,omitempty"`
	Team                  string `json:"team"`
}

type wireTopic struct {
	Value   string `json:"value"`
	Creator string `json:"creator"`
	LastSet int64  `json:"last_set"`
}

type wireChannel struct {
	ID              string     `json:"id"`
	Name            string     `json:"name,omitempty"`
	IsChannel       bool       `json:"is_channel"`
	IsGroup         bool       `json:"is_group"`
	IsIM            bool       `json:"is_im"`
	IsMpIM          bool       `json:"is_mpim"`
	IsPrivate       bool       `json:"is_private"`
	Created         int64      `json:"created"`
	IsArchived      bool       `json:"is_archived"`
	IsGeneral       bool       `json:"is_general,omitempty"`
	NameNormalized  string     `json:"name_normalized,omitempty"`
	IsShared        bool       `json:"is_shared"`
	IsOrgShared     bool       `json:"is_org_shared"`
	IsExtShared     bool       `json:"is_ext_shared"`
	ContextTeamID   string     `json:"context_team_id"`
	Updated         int64      `json:"updated"`
	Creator         string     `json:"creator,omitempty"`
	IsMember        *bool      `json:"is_member,omitempty"`
	User            string     `json:"user,omitempty"`
	IsUserDeleted   *bool      `json:"is_user_deleted,omitempty"`
	IsOpen          *bool      `json:"is_open,omitempty"`
	Priority        *float64   `json:"priority,omitempty"`
	Topic           *wireTopic `json:"topic,omitempty"`
	Purpose         *wireTopic `json:"purpose,omitempty"`
	PreviousNames   []string   `json:"previous_names,omitempty"`
	NumMembers      *int       `json:"num_members,omitempty"`
	SharedTeamIDs   []string   `json:"shared_team_ids,omitempty"`
	PendingShared   []string   `json:"pending_shared,omitempty"`
	IsPendingShared bool       `json:"is_pending_ext_shared"`
}

type wireFile struct {
	ID                 string `json:"id"`
	Created            int64  `json:"created"`
	Timestamp          int64  `json:"timestamp"`
	Name               string `json:"name"`
	Title              string `json:"title"`
	Mimetype           string `json:"mimetype"`
	Filetype           string `json:"filetype"`
	PrettyType         string `json:"pretty_type"`
	User               string `json:"user"`
	UserTeam           string `json:"user_team"`
	Editable           bool   `json:"editable"`
	Size               int    `json:"size"`
	Mode               string `json:"mode"`
	IsExternal         bool   `json:"is_external"`
	ExternalType       string `json:"external_type"`
	IsPublic           bool   `json:"is_public"`
	PublicURLShared    bool   `json:"public_url_shared"`
	DisplayAsBot       bool   `json:"display_as_bot"`
	Username           string `json:"username"`
	URLPrivate         string `json:"url_private"`
	URLPrivateDownload string `json:"url_private_download"`
	MediaDisplayType   string `json:"media_display_type"`
	Permalink          string `json:"permalink"`
	PermalinkPublic    string `json:"permalink_public"`
	HasRichPreview     bool   `json:"has_rich_preview"`
	FileAccess         string `json:"file_access"`
}

func ptr[T any](v T) *T { return &v }

func (s *Server) botProfile() *wireBotProfile {
	icon := s.root() + "fakeslack/bot_48.png"
	return &wireBotProfile{ID: s.cfg.botID, Name: s.cfg.botName, Updated: 1700000000, AppID: s.cfg.appID,
		Icons: map[string]string{"image_36": icon, "image_48": icon, "image_72": icon}, TeamID: s.cfg.teamID}
}

// wire renders a stored message the way history, replies and events show it.
func (s *Server) wire(ch *channel, m *message) *wireMsg {
	w := &wireMsg{Type: "message", Subtype: m.subtype, Text: m.text, User: m.user, BotID: m.botID,
		AppID: m.appID, Username: m.username, ClientMsgID: m.clientMsgID, TS: m.ts, Team: s.cfg.teamID,
		Blocks: m.blocks}
	if m.botID == s.cfg.botID && m.user == s.cfg.botUser {
		w.BotProfile = s.botProfile()
	}
	if m.subtype == "bot_message" {
		w.Team = ""
	}
	if m.editedTS != "" {
		w.Edited = &wireEdited{User: m.editedBy, TS: m.editedTS}
	}
	if len(m.files) > 0 {
		w.Upload = ptr(m.upload)
		w.DisplayAsBot = ptr(false)
		for _, f := range m.files {
			w.Files = append(w.Files, s.wireFile(f))
		}
	}
	if m.isReply() {
		w.ThreadTS = m.threadTS
		if p := ch.find(m.threadTS); p != nil {
			w.ParentUserID = p.user
			if m.subtype == "thread_broadcast" {
				w.Root = s.wire(ch, p)
			}
		}
		return w
	}
	if rs := ch.replies(m.ts); len(rs) > 0 {
		w.ThreadTS = m.ts
		w.ReplyCount = len(rs)
		w.LatestReply = rs[len(rs)-1].ts
		seen := map[string]bool{}
		for _, r := range rs {
			if r.user != "" && !seen[r.user] {
				seen[r.user] = true
				w.ReplyUsers = append(w.ReplyUsers, r.user)
			}
		}
		w.ReplyUsersCount = len(w.ReplyUsers)
		w.IsLocked, w.Subscribed = ptr(false), ptr(false)
	}
	return w
}

func (s *Server) fileURL(f *file, download bool) string {
	if f.ForgedURL != "" {
		return f.ForgedURL
	}
	p := "files-pri/" + s.cfg.teamID + "-" + f.ID + "/"
	if download {
		p += "download/"
	}
	return s.root() + p + url.PathEscape(f.Name)
}

func (s *Server) wireFile(f *file) wireFile {
	ft, pretty := fileType(f.Name)
	return wireFile{ID: f.ID, Created: f.created, Timestamp: f.created, Name: f.Name, Title: f.Title,
		Mimetype: f.Mimetype, Filetype: ft, PrettyType: pretty, User: f.user, UserTeam: s.cfg.teamID,
		Size: len(f.Content), Mode: "hosted", IsPublic: true,
		URLPrivate: s.fileURL(f, false), URLPrivateDownload: s.fileURL(f, true), MediaDisplayType: "unknown",
		Permalink:       "https://" + s.teamDomain() + ".slack.com/files/" + f.user + "/" + f.ID + "/" + url.PathEscape(f.Name),
		PermalinkPublic: "https://slack-files.com/" + s.cfg.teamID + "-" + f.ID + "-0000000000", FileAccess: "visible"}
}

func (s *Server) teamDomain() string {
	d := strings.ToLower(strings.ReplaceAll(s.cfg.teamName, " ", "-"))
	if d == "" {
		return "fake"
	}
	return d
}

// fileType returns Slack's filetype and pretty_type for a file name.
func fileType(name string) (string, string) {
	ext := strings.ToLower(strings.TrimPrefix(path.Ext(name), "."))
	switch ext {
	case "txt", "":
		return "text", "Plain Text"
	case "md":
		return "markdown", "Markdown (raw)"
	case "jpg", "jpeg":
		return "jpg", "JPEG"
	case "png", "gif", "pdf", "csv", "json", "html", "zip", "webp", "svg":
		return ext, strings.ToUpper(ext)
	case "go":
		return "go", "Go"
	case "py":
		return "python", "Python"
	}
	return ext, strings.ToUpper(ext)
}

func guessMimetype(name string) string {
	if t, _, err := mime.ParseMediaType(mime.TypeByExtension(path.Ext(name))); err == nil {
		return t
	}
	return "text/plain"
}

func (s *Server) wireUser(u *User) wireUser {
	w := wireUser{ID: u.ID, TeamID: s.cfg.teamID, Name: u.Name, Deleted: u.Deleted, Color: "9f69e7",
		RealName: u.RealName, IsBot: u.IsBot, Updated: 1700000000,
		Profile: wireProfile{RealName: u.RealName, RealNameNormalized: u.RealName, DisplayName: u.DisplayName,
			DisplayNameNormalized: u.DisplayName, BotID: u.BotID, Team: s.cfg.teamID}}
	if u.IsBot {
		w.Profile.AlwaysActive = true
		if u.ID == s.cfg.botUser {
			w.Profile.APIAppID = s.cfg.appID
		}
	}
	if u.TZ != "" {
		if loc, err := time.LoadLocation(u.TZ); err == nil {
			name, off := time.Now().In(loc).Zone()
			w.TZ, w.TZLabel, w.TZOffset = u.TZ, name, ptr(off)
		}
	}
	return w
}

func (s *Server) wireChannel(ch *channel) wireChannel {
	w := wireChannel{ID: ch.ID, Created: ch.created, IsArchived: ch.Archived, ContextTeamID: s.cfg.teamID,
		Updated: ch.created * 1000}
	switch ch.Kind {
	case KindIM:
		w.IsIM = true
		w.User = ch.User
		deleted := false
		if u := s.user(ch.User); u != nil {
			deleted = u.Deleted
		}
		w.IsUserDeleted, w.IsOpen, w.Priority = ptr(deleted), ptr(true), ptr(0.0)
		return w
	case KindMPIM:
		w.IsMpIM, w.IsPrivate = true, true
	case KindPrivate:
		w.IsPrivate = true
		// Private channels made before 2021 have G ids and are "groups".
		w.IsGroup = strings.HasPrefix(ch.ID, "G")
		w.IsChannel = !w.IsGroup
	default:
		w.IsChannel = true
		w.IsGeneral = ch.Name == "general"
	}
	w.Name, w.NameNormalized = ch.Name, ch.Name
	w.IsMember = ptr(ch.BotMember)
	w.Topic = &wireTopic{Value: ch.Topic}
	w.Purpose = &wireTopic{Value: ch.Purpose}
	w.PreviousNames = []string{}
	w.SharedTeamIDs = []string{s.cfg.teamID}
	w.PendingShared = []string{}
	n := len(ch.Members)
	if ch.BotMember && !slices.Contains(ch.Members, s.cfg.botUser) {
		n++
	}
	w.NumMembers = ptr(n)
	return w
}
