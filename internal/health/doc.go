// Package health answers mom's health checks: GET /healthz says mom is running, GET /readyz
// whether every configured adapter is connected, naming the ones that are not. They need no
// token and say nothing else (adapter names are config keys, never secrets), so systemd, a
// load balancer or Kubernetes can probe them.
//
// The app owns them, not any one adapter: cmd/mom builds a Checks over every configured
// adapter, serves it on an address of its own when config.json says "health": {"listen": ...}
// (Serve), and hands it to adapters that serve HTTP anyway (the web chat), which answer the
// same two paths with it. Adapters never import this package; they only implement Connector.
package health
