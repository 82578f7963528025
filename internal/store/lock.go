package store

import "errors"

// ErrInUse is the error of Lock when another mom is working on the data directory.
var ErrInUse = errors.New("the data directory is in use")

// inUse is the lock's refusal, worded for people; errors.Is(err, ErrInUse) finds it.
type inUse struct{ msg string }

func (e inUse) Error() string        { return e.msg }
func (e inUse) Is(target error) bool { return target == ErrInUse }
