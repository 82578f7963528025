package platform

// Card is something one adapter has people shown through another (the web chat), outside
// any conversation of its own: a title, a text in markdown, and an image, such as the QR code
// that links a WhatsApp device. The app passes cards between the two (internal/app's
// linking), so neither imports the other.
type Card struct {
	Title string
	// Text is markdown.
	Text string
	// Image is a data: URL (PNG or SVG); "" for none.
	Image string
}
