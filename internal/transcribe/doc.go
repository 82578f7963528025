// Package transcribe turns the audio people send (voice notes, audio clips, a video's sound
// track when the server takes its container) into text before the message is logged, with
// any server that speaks OpenAI's POST /v1/audio/transcriptions: OpenAI, Groq, a local
// whisper.cpp or faster-whisper server (config.json's "transcription").
//
// The transcript is kept on the attachment in log.jsonl (chat.Transcript), so the run the
// message starts, later runs and jq all see it; the agent shows it to the model with the
// message as "[voice note, 0:42] what was said". A file longer than the configured limit is
// not sent, and a failure is noted on the attachment; either way the message goes on, as a
// file the model is told about.
package transcribe
