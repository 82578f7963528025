package faketelegram

// The people and chats of NewTeam. Tests of the Telegram adapter and mom's conformance suite
// use the same team, so that what one says about ada or the group holds in the other.
const (
	TeamAda   int64 = 1001           // Ada Lovelace, @ada; the tests make her mom's admin
	TeamBea   int64 = 1002           // Bea, with no username, like many people
	TeamCI    int64 = 1003           // CI, @ci_bot, another bot in the group
	TeamGroup int64 = -1002000000001 // "Team", a supergroup
	TeamForum int64 = -1002000000002 // "Ops", a supergroup that is a forum
)

// NewTeam starts a server (configured by opts) with a small team on it: ada, bea and the CI
// bot, ada's and bea's private chats with the bot, a group and a forum. Close it when done.
func NewTeam(opts ...Option) *Server {
	s := New(opts...)
	s.AddUser(User{ID: TeamAda, FirstName: "Ada", LastName: "Lovelace", Username: "ada"})
	s.AddUser(User{ID: TeamBea, FirstName: "Bea"})
	s.AddUser(User{ID: TeamCI, FirstName: "CI", Username: "ci_bot", IsBot: true})
	s.AddChat(Chat{ID: TeamAda, Type: Private})
	s.AddChat(Chat{ID: TeamBea, Type: Private})
	s.AddChat(Chat{ID: TeamGroup, Type: Supergroup, Title: "Team"})
	s.AddChat(Chat{ID: TeamForum, Type: Supergroup, Title: "Ops", IsForum: true})
	return s
}
