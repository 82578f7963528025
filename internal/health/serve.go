package health

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Limits of the health checks' own server. It needs no token and may listen beyond loopback
// (a prober on another machine), so a stranger's connection gets only the time a probe needs.
const (
	// requestTimeout bounds reading a request (headers and any body) and writing its answer.
	requestTimeout = 10 * time.Second
	// idleTimeout bounds the wait between two probes on a kept-alive connection.
	idleTimeout = time.Minute
	// maxHeaderBytes is more than any probe sends.
	maxHeaderBytes = 8 << 10
)

// Server serves the checks on an address of their own.
type Server struct {
	srv    *http.Server
	addr   net.Addr
	served chan struct{} // closed when Serve has returned
}

// Serve answers the checks h on ln until Stop. Failures of the server are logged to log.
func Serve(ln net.Listener, h http.Handler, log *slog.Logger) *Server {
	s := &Server{
		srv: &http.Server{
			Handler:           h,
			ReadHeaderTimeout: requestTimeout,
			ReadTimeout:       requestTimeout,
			WriteTimeout:      requestTimeout,
			IdleTimeout:       idleTimeout,
			MaxHeaderBytes:    maxHeaderBytes,
			ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelDebug),
		},
		addr:   ln.Addr(),
		served: make(chan struct{}),
	}
	go func() {
		defer close(s.served)
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			log.Error("the health checks stopped answering", "addr", s.addr.String(), "err", err)
		}
	}()
	return s
}

// Addr is the address the checks answer on.
func (s *Server) Addr() net.Addr { return s.addr }

// Stop closes the listener and waits for the probes being answered, until ctx ends.
func (s *Server) Stop(ctx context.Context) error {
	err := s.srv.Shutdown(ctx)
	select {
	case <-s.served:
	case <-ctx.Done():
	}
	return err
}
