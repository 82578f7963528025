//go:build !linux

package sandbox

import "errors"

// channelMounts needs Linux's O_PATH descriptors, as bubblewrap needs Linux.
func (c *bwrapConfig) channelMounts(own string, v visibility) (*mounts, error) {
	return nil, errors.New("the bwrap sandbox runs only on Linux")
}
