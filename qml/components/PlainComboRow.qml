import QtQuick
import QtQuick.Controls

// A ComboBox row whose text comes from the server (a customer's or a client's name): shown as
// plain text, never read as markup. Qt's default row would fetch an <img> in a name, and Qt
// 6.4 crashes on one (its IconLabel has no QML context to resolve the URL in).
//     delegate: PlainComboRow { required property var modelData; combo: c; label: modelData.text }
ItemDelegate {
    id: row

    required property ComboBox combo
    required property int index
    required property string label

    width: ListView.view ? ListView.view.width : implicitWidth
    highlighted: combo.highlightedIndex === index
    contentItem: Label {
        textFormat: Text.PlainText
        text: row.label
        elide: Text.ElideRight
        verticalAlignment: Text.AlignVCenter
    }
}
