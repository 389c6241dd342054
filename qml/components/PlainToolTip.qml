import QtQuick
import QtQuick.Controls

// A tooltip that shows its text as plain text, for text that comes from a server (an
// admission webhook's message, a backend error). The style's ToolTip, and so the attached
// ToolTip.text, guesses rich text when the first line holds a tag: a message carrying
// <img src="http://..."> made the console load that URL.
ToolTip {
    id: control

    contentItem: Text {
        text: control.text
        textFormat: Text.PlainText
        font: control.font
        wrapMode: Text.Wrap
        color: control.palette.toolTipText
    }
}
