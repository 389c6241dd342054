pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// The JWT decoder's checks, one line each: the mark, the check, its verdict and the server's
// detail.
ColumnLayout {
    id: root

    spacing: 10 // as the result's column
    visible: JwtInspector.checks.length > 0

    SectionHeading {
        text: qsTr("Checks")
    }
    ColumnLayout {
        id: checkList

        // The widest verdict word ("passed", "nicht bestanden", ...), so the details
        // line up in every language.
        readonly property real statusWidth: {
            let widest = 62
            for (let i = 0; i < checkRepeater.count; ++i) {
                const row = checkRepeater.itemAt(i)
                if (row)
                    widest = Math.max(widest, row.statusImplicitWidth)
            }
            return widest
        }

        objectName: "checkList"
        Layout.fillWidth: true
        spacing: 4
        Repeater {
            id: checkRepeater

            model: JwtInspector.checks
            delegate: RowLayout {
                id: checkRow

                required property var modelData
                readonly property real statusImplicitWidth: statusLabel.implicitWidth

                objectName: "check-" + checkRow.modelData.name
                Layout.fillWidth: true
                spacing: 8
                Accessible.role: Accessible.StaticText
                Accessible.name: qsTr("%1 %2: %3").arg(checkRow.modelData.name)
                                                   .arg(checkRow.modelData.statusText)
                                                   .arg(checkRow.modelData.detail)
                CheckMark {
                    Layout.alignment: Qt.AlignTop
                    status: checkRow.modelData.status
                }
                Label {
                    textFormat: Text.PlainText
                    Layout.preferredWidth: 70
                    Layout.alignment: Qt.AlignBaseline
                    text: checkRow.modelData.name
                    color: Theme.text
                    font.family: Theme.monoFont
                    font.weight: Font.DemiBold
                }
                Label {
                    textFormat: Text.PlainText
                    id: statusLabel

                    objectName: "checkStatus"
                    Layout.preferredWidth: checkList.statusWidth
                    Layout.alignment: Qt.AlignBaseline
                    text: checkRow.modelData.statusText
                    color: checkRow.modelData.status === "pass" ? Theme.success
                           : checkRow.modelData.status === "fail" ? Theme.error : Theme.mutedText
                    font.weight: Font.DemiBold
                }
                Label {
                    objectName: "checkDetail"
                    Layout.fillWidth: true
                    Layout.alignment: Qt.AlignBaseline
                    text: checkRow.modelData.detail // the server's, untranslated
                    color: Theme.text
                    wrapMode: Text.Wrap
                    textFormat: Text.PlainText
                }
            }
        }
    }
}
