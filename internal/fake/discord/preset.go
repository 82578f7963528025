package fakediscord

// The ids of the preset guild (NewPreset). They are fixed so that tests in different packages,
// the Discord adapter's own and cmd/mom's conformance suite, name the same people and channels.
const (
	PresetBot     = "1100000000000000001" // mom, the bot
	PresetGeneral = "1300000000000000001" // #general, a text channel everyone sees
	PresetAda     = "1400000000000000001" // ada (Ada Lovelace), whom tests make mom's admin
	PresetBea     = "1400000000000000002" // bea (Bea Smith), a colleague
	PresetCI      = "1400000000000000003" // ci, another bot
	PresetAdaDM   = "1500000000000000001" // ada's DM with mom
	PresetBeaDM   = "1500000000000000002" // bea's DM with mom
)

// NewPreset starts a server (New) for the bot "mom" (PresetBot) whose guild has two people,
// another bot, the channel #general and each person's DM with mom. opts come after the
// preset's own, so a test can still change the bot or the application's intents. Close it
// when done.
func NewPreset(opts ...Option) *Server {
	s := New(append([]Option{WithBot(PresetBot, "mom")}, opts...)...)
	s.AddUser(User{ID: PresetAda, Username: "ada", GlobalName: "Ada Lovelace"})
	s.AddUser(User{ID: PresetBea, Username: "bea", GlobalName: "Bea Smith"})
	s.AddUser(User{ID: PresetCI, Username: "ci", Bot: true})
	s.AddChannel(Channel{ID: PresetGeneral, Name: "general"})
	s.AddChannel(Channel{ID: PresetAdaDM, Kind: KindDM, Recipient: PresetAda})
	s.AddChannel(Channel{ID: PresetBeaDM, Kind: KindDM, Recipient: PresetBea})
	return s
}
