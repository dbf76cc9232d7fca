package render

import (
	"container/list"
	"strings"

	"referee/internal/rules"
)

// The finished pictures a Painter keeps (Painter.Keep). Many mails show the
// same picture: every game of an event passes through the same opening
// positions, and in a burst of first moves every reply to White after
// 1. e4 is one picture, and every reply to Black another. A picture is kept
// under what it shows, so a kept one is the very bytes a new drawing would
// give:
//
//   - the variant and the position string (pieces, hands, the die, the
//     side to move, everything the position string holds; the counters
//     too, which the picture does not show, so that the key needs no
//     knowledge of any variant's fields);
//   - the viewer, and the squares of the last move as given;
//   - the king in check and whether it is mated: the one thing drawn that a
//     position computes from its history as well (a position read from its
//     string, as at send time, has none).
//
// The size of the picture follows from the position and the variant. The
// pictures are kept least recently used first out, up to Keep bytes.

// pictureKey is what a picture shows.
type pictureKey struct {
	variant, pos string
	viewer       rules.Color
	last         string // the last move's squares, as bytes
	check, mated bool
}

func keyOf(p rules.Position, viewer rules.Color, o Options) pictureKey {
	var last strings.Builder
	for _, sq := range o.LastMove {
		last.WriteByte(byte(sq))
		last.WriteByte(byte(sq >> 8))
	}
	_, mated, check := royalInCheck(p)
	return pictureKey{variant: p.Variant().Name(), pos: p.String(), viewer: viewer, last: last.String(), check: check, mated: mated}
}

// pictures is the kept pictures, guarded by the Painter's mu.
type pictures struct {
	order *list.List // of *keptPicture, most recently used first
	byKey map[pictureKey]*list.Element
	bytes int
}

type keptPicture struct {
	key pictureKey
	png []byte
}

// keptPicture returns a copy of the picture kept under k, if any.
func (pt *Painter) keptPicture(k pictureKey) ([]byte, bool) {
	pt.mu.Lock()
	defer pt.mu.Unlock()
	e, ok := pt.kept.byKey[k]
	if !ok {
		return nil, false
	}
	pt.kept.order.MoveToFront(e)
	return append([]byte(nil), e.Value.(*keptPicture).png...), true
}

// keep keeps a copy of png under k, dropping the least recently used
// pictures past Keep bytes. A picture larger than Keep is not kept.
func (pt *Painter) keep(k pictureKey, png []byte) {
	if len(png) > pt.Keep {
		return
	}
	pt.mu.Lock()
	defer pt.mu.Unlock()
	c := &pt.kept
	if c.byKey == nil {
		c.order, c.byKey = list.New(), map[pictureKey]*list.Element{}
	}
	if _, ok := c.byKey[k]; ok {
		return // drawn side by side by two callers: the same bytes
	}
	c.byKey[k] = c.order.PushFront(&keptPicture{key: k, png: append([]byte(nil), png...)})
	c.bytes += len(png)
	for c.bytes > pt.Keep {
		e := c.order.Back()
		old := e.Value.(*keptPicture)
		c.order.Remove(e)
		delete(c.byKey, old.key)
		c.bytes -= len(old.png)
	}
}
