// Package skills finds the skills mom may use: folders holding a SKILL.md whose frontmatter
// names the skill and says what it is for. Skills live in the workspace (for every channel) and
// in a channel's own directory (for that channel only, overriding workspace skills of the same
// name). Discovery runs before every agent run, so it reads only the head of each SKILL.md.
package skills
