package customtools

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mom-agent/mom/internal/tools"
)

const pixel = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="

// TestExecResults: the answers an executable may give, and how each reaches the model.
func TestExecResults(t *testing.T) {
	dir := t.TempDir()
	execFolder(t, dir, "structured", simpleManifest("structured", "x"),
		`printf '{"content": [{"type": "text", "text": "a chart"}, {"type": "image", "data": "`+pixel+`", "mimeType": "image/png"}], "details": {"n": 1}}'`)
	execFolder(t, dir, "plain", simpleManifest("plain", "x"), `echo "just text"`)
	execFolder(t, dir, "failing", simpleManifest("failing", "x"), `echo "the API said no" >&2; exit 4`)
	execFolder(t, dir, "refusing", simpleManifest("refusing", "x"), `printf '{"content": [{"type": "text", "text": "no such city"}], "isError": true}'`)
	execFolder(t, dir, "badblock", simpleManifest("badblock", "x"), `printf '{"content": [{"type": "audio", "data": "x"}]}'`)
	execFolder(t, dir, "badimage", simpleManifest("badimage", "x"), `printf '{"content": [{"type": "image", "data": "x", "mimeType": "image/bmp"}]}'`)
	execFolder(t, dir, "echoargs", `{"name": "echoargs", "description": "x", "run": "./run.sh",
		"parameters": {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"]}}`, `cat`)
	r, logs := startRegistry(t, dir)
	ctx := context.Background()

	res, err := run(t, ctx, find(t, r, "structured"), `{}`)
	if err != nil || len(res.Content) != 2 || res.Content[0].Text != "a chart" ||
		res.Content[1].Data != pixel || res.Content[1].MimeType != "image/png" || string(res.Details.(json.RawMessage)) != `{"n": 1}` {
		t.Errorf("structured: %+v, %v", res, err)
	}
	if res, err := run(t, ctx, find(t, r, "plain"), `{}`); err != nil || text(res) != "just text" {
		t.Errorf("plain: %q, %v", text(res), err)
	}
	if _, err := run(t, ctx, find(t, r, "failing"), `{}`); err == nil || err.Error() != "the API said no\n(failing exited with status 4)" {
		t.Errorf("failing: %v", err)
	}
	if _, err := run(t, ctx, find(t, r, "refusing"), `{}`); err == nil || err.Error() != "no such city\n(refusing failed)" {
		t.Errorf("refusing: %v", err)
	}
	if _, err := run(t, ctx, find(t, r, "badblock"), `{}`); err == nil || !strings.Contains(err.Error(), `content[0]: type "audio" is not "text" or "image"`) {
		t.Errorf("badblock: %v", err)
	}
	if _, err := run(t, ctx, find(t, r, "badimage"), `{}`); err == nil || !strings.Contains(err.Error(), `image mimeType "image/bmp" is not one of`) {
		t.Errorf("badimage: %v", err)
	}
	if res, err := run(t, ctx, find(t, r, "echoargs"), `{"city": "Vienna"}`); err != nil || text(res) != `{"city": "Vienna"}` {
		t.Errorf("the arguments on stdin: %q, %v", text(res), err)
	}
	if t.Failed() {
		t.Log(logs)
	}
}

// TestExecEnvironment: a tool gets the allowlist, what its tool.json names, and mom's
// variables, never mom's secrets.
func TestExecEnvironment(t *testing.T) {
	dir := t.TempDir()
	folder := execFolder(t, dir, "env", `{"name": "env", "description": "x", "run": "./run.sh",
		"env": {"API_KEY": "key ${WEATHER_KEY}", "LD_PRELOAD": "evil.so"}}`, `env`)
	r, _ := startRegistry(t, dir)
	res, err := run(t, context.Background(), find(t, r, "env"), `{}`)
	if err != nil {
		t.Fatal(err)
	}
	env := "\n" + text(res) + "\n"
	for _, want := range []string{"API_KEY=key wk-123", "MOM_DATA_DIR=/data", "MOM_TOOL_DIR=" + folder, "MOM_CHANNEL=slack-acme/C123", "HOME=/home/ada", "PATH="} {
		if !strings.Contains(env, "\n"+want) {
			t.Errorf("the environment lacks %s:%s", want, env)
		}
	}
	for _, secret := range []string{"ANTHROPIC_API_KEY", "SLACK_BOT_TOKEN", "WEATHER_KEY=", "LD_PRELOAD"} {
		if strings.Contains(env, "\n"+secret) {
			t.Errorf("the environment has %s:%s", secret, env)
		}
	}
}

// TestExecTimeoutAndCancel: the time limit and a stopped run both end the process with an
// error that says which; a stop is recognisable as context.Canceled.
func TestExecTimeoutAndCancel(t *testing.T) {
	dir := t.TempDir()
	execFolder(t, dir, "slow", `{"name": "slow", "description": "x", "run": "./run.sh", "timeout": 0.2}`, `sleep 60`)
	execFolder(t, dir, "slower", simpleManifest("slower", "x"), `echo started > "$MOM_TOOL_DIR/started"; sleep 60`)
	r, _ := startRegistry(t, dir)
	_, err := run(t, context.Background(), find(t, r, "slow"), `{}`)
	if err == nil || err.Error() != `slow did not finish within 200ms and was stopped (a "timeout" in its tool.json allows more)` {
		t.Errorf("timeout: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	slower := find(t, r, "slower")
	go func() {
		_, err := slower.Run(ctx, &tools.Env{}, json.RawMessage(`{}`))
		done <- err
	}()
	waitUntil(t, "the tool to start", func() bool {
		_, err := os.Stat(filepath.Join(dir, "slower", "started"))
		return err == nil
	})
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Errorf("cancel: %v", err)
	}
}
