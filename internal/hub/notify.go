package hub

import "github.com/mom-agent/mom/internal/chat"

// Notify posts a notice, markdown, at the top level of a channel of the named adapter,
// without waiting for the platform: what mom tells a channel outside of any run's reply, such
// as a spending cap's warning. A notice for an adapter the hub does not have is logged and
// dropped.
func (h *Hub) Notify(adapter, channelID, md string) {
	mem, err := h.member(adapter, "notice")
	if err != nil {
		h.log.Warn("could not post a notice", "adapter", adapter, "channel", channelID, "err", err)
		return
	}
	h.notice(mem, chat.Message{ChannelID: channelID}, md)
}
