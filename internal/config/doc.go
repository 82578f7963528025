// Package config owns config.json, the one file that says how mom runs: which model it talks
// to, where commands run (the sandbox), how failed model calls are retried, and which chat
// adapters start. It lives on the host only, beside the workspace, because it holds tokens.
//
// The file is JSON with comments and trailing commas (HuJSON). String values may reference
// environment variables as ${VAR} or ${VAR:-default}; $$ is a literal dollar sign. Decoding is
// strict: an unknown key, a wrong type or an invalid value is an error that names the key, so
// a typo never silently turns a setting off.
//
// config knows the keys every adapter has (type, busy, admins, dm, groups) but no platform:
// the caller passes the platforms an adapter may be of (a Platform each, which the registry in
// package adapter collects from the platforms' packages), and each platform's Decode reads
// its adapters' own keys through an Object, which words problems like the rest of the file's.
//
// Loading happens in two steps so command-line flags can sit in between:
//
//	cfg, err := config.Load(path, platforms...)  // decode, validate, fixed defaults
//	err = cfg.ApplyModelFlag("openai/gpt-4.1")  // optional overrides
//	err = cfg.ApplySandboxFlag("docker:mom-sandbox")
//	err = cfg.Resolve(os.LookupEnv)     // model provider, id and API key
//	if hint := cfg.MissingKeyHint(); hint != "" { ... }
//
// Resolve is separate because the model's provider, id and key depend on both the file, the
// flags and the environment; resolving inside Load would pick a key for a provider a flag is
// about to replace.
package config
