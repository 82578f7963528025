//go:build !nowhatsapp

package whatsapp

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"sync"
	"time"

	signallog "go.mau.fi/libsignal/logger"
	"go.mau.fi/whatsmeow"
	"go.mau.fi/whatsmeow/store"
	"go.mau.fi/whatsmeow/store/sqlstore"
	"go.mau.fi/whatsmeow/types"
	waLog "go.mau.fi/whatsmeow/util/log"

	// The device store's SQL driver: pure Go, so mom builds with CGO off. It registers itself
	// as "sqlite", a name whatsmeow's database layer takes for the SQLite dialect.
	_ "modernc.org/sqlite"

	"github.com/mom-agent/mom/internal/adapter/platform"
)

// init sets, once and before anything can use them, two things the WhatsApp libraries keep
// in variables of their own, which could not be set later without racing with adapters that
// already run:
//
//   - the name of the linked device in the phone's list (WhatsApp → Settings → Linked
//     devices): "mom" instead of whatsmeow's default, so that people know which entry to
//     remove;
//   - libsignal's logger. Its default prints to standard output, where mom's terminal chat
//     and `mom run`'s answer go, and is itself set up lazily by whichever goroutine logs
//     first, a data race. What it would log comes back as errors, which whatsmeow logs.
func init() {
	store.SetOSInfo("mom", [3]uint32{0, 1, 0})
	var quiet signallog.Loggable = signalLog{}
	signallog.Setup(&quiet)
}

// signalLog discards libsignal's log lines (see init).
type signalLog struct{}

func (signalLog) Debug(caller, message string)   {}
func (signalLog) Info(caller, message string)    {}
func (signalLog) Warning(caller, message string) {}
func (signalLog) Error(caller, message string)   {}
func (signalLog) Configure(settings string)      {}

// deviceDir is the directory of the data directory the linked devices' stores are kept in:
// beside the workspace, not in it, so no command of the agent can read a device's keys.
const deviceDir = "whatsapp"

// adapterName is what an adapter's name may be (see config's adapter names): safe as a file
// name.
var adapterName = regexp.MustCompile(`^[A-Za-z0-9_-]{1,64}$`)

// DevicePath is the file the adapter called name keeps its linked device in: the keys that
// make it a device of the phone's account, its Signal sessions and the contacts the phone
// shares. <dataDir>/whatsapp/<name>.db, readable by mom's user only.
func DevicePath(dataDir, name string) string {
	return filepath.Join(dataDir, deviceDir, name+".db")
}

// Connect opens the linked device of the adapter called name, in env.Store's data directory
// (see DevicePath; it is created, empty, on first use), and returns the WhatsApp client that
// works as that device. It does not dial WhatsApp: the client's Connect does. A client whose
// device is not linked yet shows QR codes when it connects (see `mom whatsapp-link`), and Self
// says so.
//
// The client acknowledges a message to WhatsApp only when every event handler has returned
// (SynchronousAck), so a message is acknowledged once it is in log.jsonl; it keeps what it
// decrypted in the store until then (the decrypted-event buffer), so a message WhatsApp
// delivers again after a crash can still be read: the Signal session it was encrypted with
// has moved on. It reconnects by itself when the connection drops.
//
// The client is also an io.Closer: Close disconnects and closes the store. Close it before
// setting its store aside (SetAsideLoggedOut).
func Connect(ctx context.Context, name string, env platform.Env) (Client, error) {
	if env.Store == nil {
		return nil, fmt.Errorf("whatsapp adapter %s: no data directory to keep the linked device in", name)
	}
	log := env.Base(name).Logger()
	db, dev, err := openDevice(ctx, env.Store.DataDir(), name, log)
	if err != nil {
		return nil, err
	}
	return &device{Client: newClient(dev, log), db: db}, nil
}

// device is a *whatsmeow.Client on a linked device's store, with the two things Client asks
// of it that whatsmeow keeps in the store rather than on the client.
type device struct {
	*whatsmeow.Client
	db *sqlstore.Container
	// closed makes Close once: a logout closes the device to set its store aside, and
	// the adapter's Stop closes it again.
	closed sync.Once
}

var _ Client = (*device)(nil)

// Self is the number the device is linked to, without the device part of its JID (the
// phone's account, as people mention it), and the account's push name.
func (d *device) Self() (jid types.JID, pushName string, ok bool) {
	id := d.Store.ID
	if id == nil {
		return types.JID{}, "", false
	}
	return id.ToNonAD(), d.Store.PushName, true
}

// Contact is what the store knows of a person: the name in the linked phone's address book,
// which the phone shares with its devices, and their push name.
func (d *device) Contact(ctx context.Context, jid types.JID) (types.ContactInfo, error) {
	return d.Store.Contacts.GetContact(ctx, jid)
}

// Close disconnects and closes the device's store; later calls do nothing.
func (d *device) Close() error {
	var err error
	d.closed.Do(func() {
		d.Disconnect()
		if cerr := d.db.Close(); cerr != nil {
			err = fmt.Errorf("closing the WhatsApp device store: %w", cerr)
		}
	})
	return err
}

// newClient is a client on dev as mom uses it, logging to log (see Connect).
func newClient(dev *store.Device, log *slog.Logger) *whatsmeow.Client {
	cli := whatsmeow.NewClient(dev, newLogger(log))
	cli.SynchronousAck = true
	cli.EnableDecryptedEventBuffer = true
	cli.EnableAutoReconnect = true
	return cli
}

// openDevice opens the store of the adapter called name in dataDir, creating it readable by
// mom's user only, and returns the device in it: the linked one, or a new one to link.
func openDevice(ctx context.Context, dataDir, name string, log *slog.Logger) (*sqlstore.Container, *store.Device, error) {
	if !adapterName.MatchString(name) {
		return nil, nil, fmt.Errorf("%q cannot name a WhatsApp adapter: use letters, digits, - and _", name)
	}
	path := DevicePath(dataDir, name)
	if err := prepareDeviceFile(path); err != nil {
		return nil, nil, err
	}
	// A URI, so that no character of the path is taken for a parameter; foreign_keys is
	// required by whatsmeow's store (it refuses to start without), and busy_timeout makes
	// its goroutines wait for each other's writes instead of failing with "database is locked".
	dsn := (&url.URL{Scheme: "file", Path: path, RawQuery: "_pragma=foreign_keys(1)&_pragma=busy_timeout(5000)"}).String()
	db, err := sqlstore.New(ctx, "sqlite", dsn, newLogger(log).Sub("Database"))
	if err != nil {
		return nil, nil, fmt.Errorf("opening the WhatsApp device store %s: %w", path, err)
	}
	dev, err := db.GetFirstDevice(ctx)
	if err != nil {
		_ = db.Close()
		return nil, nil, fmt.Errorf("reading the WhatsApp device from %s: %w", path, err)
	}
	return db, dev, nil
}

// prepareDeviceFile makes the directory of the device stores (0700) and the store at path
// (0600) before SQLite opens it, so that the keys are never readable by others, not even
// between SQLite creating the file and a chmod after. A directory or file that exists is
// narrowed to those modes too.
func prepareDeviceFile(path string) error {
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return fmt.Errorf("creating %s for the WhatsApp device store: %w", dir, err)
	}
	if err := os.Chmod(dir, 0o700); err != nil {
		return fmt.Errorf("making %s private: %w", dir, err)
	}
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return fmt.Errorf("creating the WhatsApp device store %s: %w", path, err)
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("creating the WhatsApp device store %s: %w", path, err)
	}
	if err := os.Chmod(path, 0o600); err != nil {
		return fmt.Errorf("making the WhatsApp device store %s private: %w", path, err)
	}
	return nil
}

// SetAsideLoggedOut moves the device store of the adapter called name out of the way after
// the phone logged the device out (events.LoggedOut: removed under Linked devices, or
// WhatsApp ended the session), so that the next start, or `mom whatsapp-link`, begins with
// a fresh store to link. Nothing is deleted: the store is renamed to
// <name>.db.logged-out-<now, UTC> beside it (with SQLite's journal files, if any), where the
// owner can look at it or remove it. It returns the new path, or "" when there was no store.
//
// Close the client on the store first (see Connect): SQLite would otherwise go on writing a
// journal under the old name, beside the fresh store that takes it.
func SetAsideLoggedOut(dataDir, name string, now time.Time) (string, error) {
	path := DevicePath(dataDir, name)
	if _, err := os.Lstat(path); errors.Is(err, fs.ErrNotExist) {
		return "", nil
	} else if err != nil {
		return "", fmt.Errorf("setting aside the logged-out WhatsApp device store: %w", err)
	}
	stamp := now.UTC().Format("20060102T150405.000Z")
	aside := path + ".logged-out-" + stamp
	// Two log-outs within a millisecond are unlikely, but an earlier store is never
	// overwritten.
	for i := 2; ; i++ {
		if _, err := os.Lstat(aside); errors.Is(err, fs.ErrNotExist) {
			break
		}
		aside = fmt.Sprintf("%s.logged-out-%s-%d", path, stamp, i)
	}
	// The journal files first: a store without its hot journal would lose its last write,
	// and a journal left under the old name would be replayed into the fresh store.
	for _, suffix := range []string{"-journal", "-wal", "-shm"} {
		err := os.Rename(path+suffix, aside+suffix)
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("setting aside the logged-out WhatsApp device store: %w", err)
		}
	}
	if err := os.Rename(path, aside); err != nil {
		return "", fmt.Errorf("setting aside the logged-out WhatsApp device store: %w", err)
	}
	return aside, nil
}

// logger passes whatsmeow's log lines to mom's log: warnings and errors as such, the rest,
// which is about the protocol's inner workings, at debug level. module is whatsmeow's part
// of itself that logs ("Client/Recv").
type logger struct {
	log    *slog.Logger
	module string
}

// newLogger is a whatsmeow logger writing to log.
func newLogger(log *slog.Logger) waLog.Logger {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return logger{log: log}
}

func (l logger) Errorf(msg string, args ...any) { l.logf(slog.LevelError, msg, args) }
func (l logger) Warnf(msg string, args ...any)  { l.logf(slog.LevelWarn, msg, args) }
func (l logger) Infof(msg string, args ...any)  { l.logf(slog.LevelDebug, msg, args) }
func (l logger) Debugf(msg string, args ...any) { l.logf(slog.LevelDebug, msg, args) }

// Sub is the logger of a part of the module.
func (l logger) Sub(module string) waLog.Logger {
	if l.module != "" {
		module = l.module + "/" + module
	}
	return logger{log: l.log, module: module}
}

// logf formats the line only when it is logged: whatsmeow's debug lines print whole protocol
// nodes, many per message.
func (l logger) logf(level slog.Level, msg string, args []any) {
	ctx := context.Background()
	if !l.log.Enabled(ctx, level) {
		return
	}
	attrs := []any{"whatsmeow", l.module}
	if l.module == "" {
		attrs = attrs[:0]
	}
	l.log.Log(ctx, level, fmt.Sprintf(msg, args...), attrs...)
}
