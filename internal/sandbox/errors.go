package sandbox

import "io/fs"

// notExistError is an error that reads as a plain sentence yet still matches fs.ErrNotExist,
// so callers can test for a missing path without the message repeating "no such file".
type notExistError struct{ msg string }

func (e *notExistError) Error() string { return e.msg }

func (e *notExistError) Is(target error) bool { return target == fs.ErrNotExist }
