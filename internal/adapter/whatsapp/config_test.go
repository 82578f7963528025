//go:build !nowhatsapp

package whatsapp

import (
	"slices"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/config"
	"github.com/mom-agent/mom/internal/config/configtest"
)

func TestWhatsAppOptions(t *testing.T) {
	in := `{"adapters": {"wa": {"type": "whatsapp", "admins": ["+43 660 1234567", "431111111@s.whatsapp.net", "431111111:7@s.whatsapp.net"],
		"dm": ["900000000000002@lid"], "prefix": " mom, ", "verbosity": "normal", "historyDays": 7}}}`
	c, err := config.Parse([]byte(in), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	a := c.Adapters[0]
	wa, _ := a.Options.(*Config)
	if wa == nil || wa.Prefix != "mom," || wa.Verbosity != config.Normal || wa.HistoryDays != 7 {
		t.Fatalf("options = %+v", wa)
	}
	if want := []string{"+436601234567", "+431111111", "+431111111"}; !slices.Equal(a.Admins, want) {
		t.Errorf("admins = %q; want %q, as messages name their senders", a.Admins, want)
	}
	if !slices.Equal(a.DM.Users, []string{"900000000000002@lid"}) {
		t.Errorf("dm = %q", a.DM.Users)
	}
	if sum := c.Summary(); !strings.Contains(sum, "wa (whatsapp)") || !strings.Contains(sum, `prefix "mom,"`) {
		t.Errorf("summary misses the adapter or its prefix:\n%s", sum)
	}
	c, err = config.Parse([]byte(`{"adapters": {"wa": {"type": "whatsapp"}}}`), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatal(err)
	}
	a = c.Adapters[0]
	if wa := a.Options.(*Config); wa.Verbosity != config.Quiet || wa.Prefix != "" || a.DM.Everyone || !a.Groups.WhereAdmins {
		t.Errorf("defaults = %+v, dm %v, groups %+v; want quiet, no prefix, DMs closed, groups where admins are", wa, a.DM, a.Groups)
	}
}

func TestWhatsAppErrors(t *testing.T) {
	configtest.CheckErrors(t, []config.Platform{configPlatform()}, []configtest.ErrCase{
		{
			Name: "a local number",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "admins": ["0660 1234567"]}}}`,
			Want: `config.json: adapters.wa.admins[0]: "0660 1234567": write the phone number the international way, with a plus and the country code, like "+431234567"`,
		},
		{
			Name: "a number without the plus",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "dm": ["436601234567"]}}}`,
			Want: `config.json: adapters.wa.dm[0]: "436601234567": write the phone number`,
		},
		{
			Name: "a name",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "admins": ["ada"]}}}`,
			Want: `config.json: adapters.wa.admins[0]: "ada" is not a phone number or a WhatsApp JID`,
		},
		{
			Name: "a group as an admin",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "admins": ["120363000000000001@g.us"]}}}`,
			Want: `config.json: adapters.wa.admins[0]: "120363000000000001@g.us" is not a person's JID`,
		},
		{
			Name: "an empty prefix",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "prefix": " "}}}`,
			Want: `config.json: adapters.wa.prefix: is empty`,
		},
		{
			Name: "negative history",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "historyDays": -1}}}`,
			Want: `config.json: adapters.wa.historyDays: must be at least 0`,
		},
		{
			Name: "unknown key",
			In:   `{"adapters": {"wa": {"type": "whatsapp", "phone": "+431"}}}`,
			Want: `config.json: adapters.wa: unknown key "phone"`,
		},
	})
}

// TestWhatsAppTemplateExample: the first-run config's example entry, uncommented, is a valid
// WhatsApp adapter.
func TestWhatsAppTemplateExample(t *testing.T) {
	var entry string
	for _, l := range strings.Split(templateText, "\n") {
		if strings.HasPrefix(l, `// "whatsapp": {`) {
			entry = strings.TrimSuffix(strings.TrimPrefix(l, "// "), ",")
		}
	}
	if entry == "" {
		t.Fatalf("template.jsonc has no example entry:\n%s", templateText)
	}
	c, err := config.Parse([]byte(`{"adapters": {`+entry+`}}`), "config.json", configtest.Env(nil), configPlatform())
	if err != nil {
		t.Fatalf("the example entry does not load: %v\n%s", err, entry)
	}
	if a := c.Adapters[0]; a.Name != "whatsapp" || !slices.Equal(a.Admins, []string{"+431234567"}) {
		t.Errorf("the example reads as %+v", a)
	}
}
