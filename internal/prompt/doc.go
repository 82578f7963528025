// Package prompt builds mom's system prompt from embedded section files (sections/), plain
// prose with placeholders such as {{Workspace}}; Go code chooses which files make up the prompt
// and fills the placeholders, without text/template, whose reflection would keep every method
// of every type in the binary. The prompt is platform-neutral: the model writes standard
// markdown and @username mentions, and each adapter converts them. It is rebuilt before every
// run with fresh memory, skills, people and channels, so Build is cheap and its output depends
// only on its Params: the same Params give the same bytes, which keeps the provider's prompt
// cache warm between runs.
package prompt
