// Package fakellm is a loopback model server for tests. It speaks the two wire protocols mom
// uses exactly as the vendors document them: Anthropic Messages (POST /v1/messages, SSE
// events message_start … message_stop, {"type":"error","error":{…}} bodies) and OpenAI Chat
// Completions (POST /v1/chat/completions, data-only SSE chunks ending in [DONE],
// {"error":{…}} bodies). The real Anthropic SDK, mom's OpenAI client and the real mom binary
// talk to it unchanged.
//
// Point a client at it through its base URL:
//
//	Anthropic SDK (appends "v1/messages"):        srv.URL()
//	OpenAI clients (append "chat/completions"):   srv.OpenAIURL(), which is srv.URL()+"/v1"
//
// Tests script the answers (Enqueue, Handle, Default), and assert on what the client sent
// (Requests, WaitRequests). Requests are validated the way the real APIs validate them, so a
// transcript with a tool call and no result, or roles out of order, fails with the real 400
// error instead of passing silently.
package fakellm
