package faketelegram

import (
	"bytes"
	"encoding/binary"
	"image"
	"image/draw"
	_ "image/gif" // photos may be GIF, PNG or JPEG
	"image/jpeg"
	"image/png"
	"net/http"
)

// The limits of sendPhoto, as https://core.telegram.org/bots/api#sendphoto states them: "The
// photo must be at most 10 MB in size. The photo's width and height must not exceed 10000 in
// total. Width and height ratio must be at most 20."
const (
	maxPhoto      = 10 << 20
	maxPhotoSides = 10000
	maxPhotoRatio = 20
)

// photoSides are the longest sides of the sizes Telegram keeps of a photo (the "s", "m", "x",
// "y" and "w" sizes); a photo gets every one smaller than itself, and itself, cut to the
// largest.
var photoSides = []int{90, 320, 800, 1280, 2560}

// newPhoto is an image turned into a photo as Telegram keeps it: re-encoded as JPEG in the
// sizes of photoSides, largest last, or the refusal sendPhoto answers. A WebP, which the
// standard library cannot decode, is kept as it came in one size.
func newPhoto(content []byte) (*file, *apiError) {
	if len(content) > maxPhoto {
		return nil, badRequest("PHOTO_SAVE_FILE_INVALID")
	}
	w, h, ok := imageSize(content)
	if !ok {
		return nil, badRequest("IMAGE_PROCESS_FAILED")
	}
	if w+h > maxPhotoSides || max(w, h) > maxPhotoRatio*min(w, h) {
		return nil, badRequest("PHOTO_INVALID_DIMENSIONS")
	}
	img, _, err := image.Decode(bytes.NewReader(content))
	if err != nil {
		return &file{File: File{Kind: Photo, MimeType: http.DetectContentType(content), Content: content, Width: w, Height: h}}, nil
	}
	var sizes []*file
	for _, side := range photoSides {
		sw, sh := fit(w, h, side)
		sizes = append(sizes, &file{File: File{Kind: Photo, MimeType: "image/jpeg", Content: scaledJPEG(img, sw, sh), Width: sw, Height: sh}})
		if sw == w && sh == h {
			break
		}
	}
	largest := sizes[len(sizes)-1]
	largest.sizes = sizes[:len(sizes)-1]
	return largest, nil
}

// fit scales w×h down (never up) so that its longest side is at most side.
func fit(w, h, side int) (int, int) {
	long := max(w, h)
	if long <= side {
		return w, h
	}
	return max(w*side/long, 1), max(h*side/long, 1)
}

// scaledJPEG draws img at w×h, nearest neighbour, and encodes it as JPEG.
func scaledJPEG(img image.Image, w, h int) []byte {
	b := img.Bounds()
	out := image.NewRGBA(image.Rect(0, 0, w, h))
	if w == b.Dx() && h == b.Dy() {
		draw.Draw(out, out.Bounds(), img, b.Min, draw.Src)
	} else {
		for y := range h {
			for x := range w {
				out.Set(x, y, img.At(b.Min.X+x*b.Dx()/w, b.Min.Y+y*b.Dy()/h))
			}
		}
	}
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, out, &jpeg.Options{Quality: 87}); err != nil {
		panic("faketelegram: encoding a JPEG in memory failed: " + err.Error())
	}
	return buf.Bytes()
}

// imageSize reads the width and height of a PNG, JPEG, GIF or WebP image.
func imageSize(content []byte) (w, h int, ok bool) {
	if cfg, _, err := image.DecodeConfig(bytes.NewReader(content)); err == nil {
		return cfg.Width, cfg.Height, cfg.Width > 0 && cfg.Height > 0
	}
	return webpSize(content)
}

// webpSize reads a WebP's canvas size from its first chunk: VP8 (lossy), VP8L (lossless) or
// VP8X (extended), as RFC 9649 lays them out.
func webpSize(b []byte) (w, h int, ok bool) {
	if len(b) < 30 || string(b[0:4]) != "RIFF" || string(b[8:12]) != "WEBP" {
		return 0, 0, false
	}
	le16 := func(p []byte) int { return int(binary.LittleEndian.Uint16(p)) }
	le24 := func(p []byte) int { return int(p[0]) | int(p[1])<<8 | int(p[2])<<16 }
	switch string(b[12:16]) {
	case "VP8 ":
		if b[23] != 0x9d || b[24] != 0x01 || b[25] != 0x2a {
			return 0, 0, false
		}
		w, h = le16(b[26:])&0x3fff, le16(b[28:])&0x3fff
	case "VP8L":
		if b[20] != 0x2f {
			return 0, 0, false
		}
		bits := binary.LittleEndian.Uint32(b[21:])
		w, h = int(bits&0x3fff)+1, int(bits>>14&0x3fff)+1
	case "VP8X":
		w, h = le24(b[24:])+1, le24(b[27:])+1
	default:
		return 0, 0, false
	}
	return w, h, w > 0 && h > 0
}

// PNG returns an uncompressed PNG of w×h pixels, a colour gradient, for tests that send
// pictures; it is about 3·w·h bytes long (opaque RGB), so a test can make one over a size limit.
func PNG(w, h int) []byte {
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			i := img.PixOffset(x, y)
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = uint8(x*255/w), uint8(y*255/h), 128, 255
		}
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.NoCompression}
	if err := enc.Encode(&buf, img); err != nil {
		panic("faketelegram: encoding a PNG in memory failed: " + err.Error())
	}
	return buf.Bytes()
}
