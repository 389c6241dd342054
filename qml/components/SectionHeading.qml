import QtQuick
import QtQuick.Controls
import Gatehouse

// A small upper-case heading above a section of a detail pane.
Label {
    textFormat: Text.PlainText
    color: Theme.mutedText
    font.pixelSize: 12
    font.weight: Font.DemiBold
    font.capitalization: Font.AllUppercase
    font.letterSpacing: 0.6
}
