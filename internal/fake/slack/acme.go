package fakeslack

// Acme is the small workspace mom's Slack tests share, in cmd/mom (the binary, the
// conformance suite) and in the Slack adapter's package, so that both speak of the same
// people and conversations by the same ids.
const (
	AcmeBot     = "U0BOT"     // the bot user, named mom
	AcmeGeneral = "C0GENERAL" // #general, with ada, bea and the bot
	AcmeAda     = "U0ADA"     // Ada Lovelace (ada), whom the tests make an admin
	AcmeBea     = "U0BEA"     // Bea Smith (bea), a colleague
	AcmeAdaDM   = "D0ADADM"   // ada's DM with the bot
	AcmeBeaDM   = "D0BEADM"   // bea's DM with the bot
)

// NewAcme is New with the Acme workspace in it: the bot, ada and bea, #general and the two
// DMs. opts come after WithBot(AcmeBot, "mom"); one that renames the bot's user leaves
// #general with a member who is no longer the bot. The caller closes the server.
func NewAcme(opts ...Option) *Server {
	s := New(append([]Option{WithBot(AcmeBot, "mom")}, opts...)...)
	s.AddUser(User{ID: AcmeAda, Name: "ada", RealName: "Ada Lovelace"})
	s.AddUser(User{ID: AcmeBea, Name: "bea", RealName: "Bea Smith"})
	s.AddChannel(Channel{ID: AcmeGeneral, Name: "general", Members: []string{AcmeAda, AcmeBea, AcmeBot}, BotMember: true})
	s.AddChannel(Channel{ID: AcmeBeaDM, Kind: KindIM, User: AcmeBea})
	s.AddChannel(Channel{ID: AcmeAdaDM, Kind: KindIM, User: AcmeAda})
	return s
}
