package compact

// The prompts are pi-coding-agent's (compaction.ts), so a mom summary reads like a pi summary
// and pi's tools continue a mom conversation without surprise. Only "coding assistant" is
// widened to "assistant": mom is a chat agent that also writes code.

// systemPrompt tells the model it is summarizing, not taking part.
const systemPrompt = `You are a context summarization assistant. Your task is to read a conversation between a user and an AI assistant, then produce a structured summary following the exact format specified.

Do NOT continue the conversation. Do NOT respond to any questions in the conversation. ONLY output the structured summary.`

// summaryFormat is the structure every summary follows.
const summaryFormat = `Use this EXACT format:

## Goal
[What is the user trying to accomplish? Can be multiple items if the session covers different tasks.]

## Constraints & Preferences
- [Any constraints, preferences, or requirements mentioned by user]
- [Or "(none)" if none were mentioned]

## Progress
### Done
- [x] [Completed tasks/changes]

### In Progress
- [ ] [Current work]

### Blocked
- [Issues preventing progress, if any]

## Key Decisions
- **[Decision]**: [Brief rationale]

## Next Steps
1. [Ordered list of what should happen next]

## Critical Context
- [Any data, examples, or references needed to continue]
- [Or "(none)" if not applicable]

Keep each section concise. Preserve exact file paths, function names, and error messages.`

// summaryPrompt asks for the first summary of a conversation.
const summaryPrompt = `The messages above are a conversation to summarize. Create a structured context checkpoint summary that another LLM will use to continue the work.

` + summaryFormat

// updatePrompt asks to fold new messages into the previous summary rather than summarize a
// summary.
const updatePrompt = `The messages above are NEW conversation messages to incorporate into the existing summary provided in <previous-summary> tags.

Update the existing structured summary with new information. RULES:
- PRESERVE all existing information from the previous summary
- ADD new progress, decisions, and context from the new messages
- UPDATE the Progress section: move items from "In Progress" to "Done" when completed
- UPDATE "Next Steps" based on what was accomplished
- PRESERVE exact file paths, function names, and error messages
- If something is no longer relevant, you may remove it

` + summaryFormat

// turnPrefixPrompt asks for the summary of the beginning of a turn too big to keep whole.
const turnPrefixPrompt = `This is the PREFIX of a turn that was too large to keep. The SUFFIX (recent work) is retained.

Summarize the prefix to provide context for the retained suffix:

## Original Request
[What did the user ask for in this turn?]

## Early Progress
- [Key decisions and work done in the prefix]

## Context for Suffix
- [Information needed to understand the retained recent work]

Be concise. Focus on what's needed to understand the kept suffix.`

// splitTurnHeading joins the history summary and the turn-prefix summary of a split turn.
const splitTurnHeading = "\n\n---\n\n**Turn Context (split turn):**\n\n"

// noHistory is the history summary of a split turn that has no history before it.
const noHistory = "No prior history."
