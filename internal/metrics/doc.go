// Package metrics counts what mom does, for whoever runs it, and answers GET /metrics in the
// Prometheus text format beside the health checks (on their own address and on the web
// chat's), behind a bearer token: config.json's "metrics" token or a web chat's.
//
// The counts come from a few seams, none of which knows about metrics: the hub's Observer
// (runs and their events: tool calls, retries, compactions, approvals; busy replies), a wrapper around the model provider (model calls,
// tokens, cost), a wrapper around what the events watcher wakes the hub with (events fired),
// a look at the health checks once a second (adapter connections), and the hub's load at
// scrape time (queues). Labels are per adapter, model and tool; never per channel or person
// unless "metrics": {"perChannel": true}, because every channel would be a series of its own.
//
// Everything lives in one Set owned by the Metrics value the app makes: no package state,
// and two moms in one process (tests) count apart.
package metrics
