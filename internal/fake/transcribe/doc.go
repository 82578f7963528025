// Package faketranscribe is a loopback speech-to-text server for tests. It speaks OpenAI's
// audio transcription API as documented (POST /v1/audio/transcriptions, a multipart/form-data
// body with "file", "model" and optional "response_format", "language", "prompt" and
// "temperature"; a bearer key; at most 25 MB; the formats flac, m4a, mp3, mp4, mpeg, mpga,
// oga, ogg, wav and webm), which Groq and local whisper.cpp or faster-whisper servers speak
// too. It answers in the documented shapes: {"text", "usage": {"type": "duration",
// "seconds"}} for "json", the bare text for "text", {"task", "language", "duration", "text",
// "segments"} for "verbose_json", and {"error": {"message", "type", "param", "code"}} with
// the API's statuses when a request is wrong or a test scripts a failure.
//
// Tests script what each upload says (Enqueue, Default) and assert on what the client sent
// (Requests). OggOpus makes a voice note's file of a given length, as Telegram and WhatsApp
// send them.
package faketranscribe
