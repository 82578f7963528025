//go:build !nowhatsapp

package fakewhatsapp

import (
	"cmp"
	"slices"
	"time"

	"go.mau.fi/whatsmeow/proto/waCommon"
	"go.mau.fi/whatsmeow/proto/waHistorySync"
	"go.mau.fi/whatsmeow/proto/waWeb"
	"go.mau.fi/whatsmeow/types"
	"go.mau.fi/whatsmeow/types/events"
	"google.golang.org/protobuf/proto"
)

// Past is a message said in a chat before mom's device was linked, which the phone shares
// with the device in a history sync (SendHistory).
type Past struct {
	// Chat is the group, or for a 1:1 chat the person's JID; From the person who said it, or
	// mom's own number for a message written on mom's phone.
	Chat, From types.JID
	Text       string
	// At is when it was said.
	At time.Time
	// Options shape it as they shape a message of Say: Mentioning, WithImage, ...
	Options []SayOption
}

// SendHistory plays mom's phone sharing its chats with the linked device, as phones do after
// linking: the connected device hears one events.HistorySync of the given kind
// (waHistorySync.HistorySync_INITIAL_BOOTSTRAP, _RECENT, ...), as whatsmeow hands it over
// once it has downloaded the blob: a Conversation per chat, in the order the chats first
// appear in past, with the chat's messages as WebMessageInfo protos, newest first as phones
// list them, and the push names of the people in them. The messages join the chats as people
// see them. It returns their ids, in the order of past; nobody hears the sync when the device
// is not connected.
func (s *Server) SendHistory(kind waHistorySync.HistorySync_HistorySyncType, past ...Past) []types.MessageID {
	s.mu.Lock()
	data := &waHistorySync.HistorySync{SyncType: kind.Enum(), ChunkOrder: proto.Uint32(1), Progress: proto.Uint32(100)}
	convs := map[types.JID]*waHistorySync.Conversation{}
	named := map[types.JID]bool{}
	ids := make([]types.MessageID, len(past))
	for i, p := range past {
		evt, seen := s.composeLocked(p.Chat, p.From, p.Text, p.At, p.Options)
		ids[i] = evt.Info.ID
		s.chats[p.Chat] = append(s.chats[p.Chat], seen)
		conv := convs[p.Chat]
		if conv == nil {
			conv = &waHistorySync.Conversation{ID: proto.String(p.Chat.String())}
			if g := s.groups[p.Chat]; g != nil {
				conv.Name = proto.String(g.Name)
			}
			convs[p.Chat] = conv
			data.Conversations = append(data.Conversations, conv)
		}
		conv.Messages = append(conv.Messages, &waHistorySync.HistorySyncMsg{Message: webMessage(evt)})
		if person := s.people[p.From]; person != nil && !named[p.From] && person.PushName != "" {
			named[p.From] = true
			data.Pushnames = append(data.Pushnames, &waHistorySync.Pushname{ID: proto.String(p.From.String()), Pushname: proto.String(person.PushName)})
		}
	}
	for _, conv := range data.Conversations {
		slices.SortStableFunc(conv.Messages, func(x, y *waHistorySync.HistorySyncMsg) int {
			return cmp.Compare(y.GetMessage().GetMessageTimestamp(), x.GetMessage().GetMessageTimestamp())
		})
		for i, m := range conv.Messages {
			m.MsgOrderID = proto.Uint64(uint64(len(conv.Messages) - i))
		}
		conv.LastMsgTimestamp = proto.Uint64(conv.Messages[0].GetMessage().GetMessageTimestamp())
	}
	c := s.client
	s.mu.Unlock()
	if c != nil {
		c.dispatch(&events.HistorySync{Data: data})
	}
	s.Notify()
	return ids
}

// webMessage is a message as a history sync carries it: the stored form of the message
// (WebMessageInfo), its key naming the chat, whether mom sent it, its id and, in a group, its
// sender, as the group addresses them.
func webMessage(evt *events.Message) *waWeb.WebMessageInfo {
	info := evt.Info
	key := &waCommon.MessageKey{RemoteJID: proto.String(info.Chat.String()), FromMe: proto.Bool(info.IsFromMe), ID: proto.String(info.ID)}
	if info.IsGroup && !info.IsFromMe {
		key.Participant = proto.String(info.Sender.String())
	}
	w := &waWeb.WebMessageInfo{Key: key, Message: evt.RawMessage, MessageTimestamp: proto.Uint64(uint64(info.Timestamp.Unix())),
		Status: waWeb.WebMessageInfo_READ.Enum()}
	if !info.IsFromMe {
		w.PushName = optional(info.PushName)
	}
	return w
}
