// Package oldprompt is the text/template prompt builder as it was before sections/, kept for one commit so
// the equivalence test can compare the two.
package oldprompt
