package fakeserver

import (
	"errors"
	"io"
	"mime/multipart"
)

// Part is one part of a multipart/form-data body, read whole.
type Part struct {
	Name        string // the form field's name
	FileName    string // the file's name; "" for a plain field
	ContentType string // the part's Content-Type header; "" when it has none
	Data        []byte
}

// ReadParts reads every part of a multipart/form-data body with the boundary taken from its
// Content-Type. Which fields are allowed and what they mean is the caller's protocol.
func ReadParts(body io.Reader, boundary string) ([]Part, error) {
	if boundary == "" {
		return nil, errors.New("no boundary in the Content-Type")
	}
	mr := multipart.NewReader(body, boundary)
	var parts []Part
	for {
		p, err := mr.NextPart()
		if err == io.EOF {
			return parts, nil
		}
		if err != nil {
			return nil, err
		}
		data, err := io.ReadAll(p)
		if err != nil {
			return nil, err
		}
		parts = append(parts, Part{Name: p.FormName(), FileName: p.FileName(), ContentType: p.Header.Get("Content-Type"), Data: data})
	}
}
