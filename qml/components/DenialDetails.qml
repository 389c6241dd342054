pragma ComponentBehavior: Bound
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Gatehouse

// Why the cluster API refused a request (the denial explainer): the refusing stage and who,
// their own words quoted, and for an authorization denial every RBAC binding that names the
// requester but did not apply, with why and each rule's misses. The models parse the server's
// answer (ClusterDenial): quotes are [{who, decision, text}], nearMisses [{bindingText,
// roleText, subjectText, reasonText, message, rules: [{index, rule, missText, messages}]}].
// Server words (quotes, messages, rules) are shown verbatim.
ColumnLayout {
    id: root

    property string headline
    property string stage
    property var quotes: []
    property var nearMisses: []

    spacing: 8

    Label {
        textFormat: Text.PlainText
        objectName: "denialHeadline"
        Layout.fillWidth: true
        text: root.headline
        color: Theme.error
        font.weight: Font.DemiBold
        wrapMode: Text.Wrap
    }

    Repeater {
        model: root.quotes
        delegate: RowLayout {
            id: quote

            required property int index
            required property var modelData

            objectName: "denialQuote-" + quote.index
            Layout.fillWidth: true
            spacing: 10
            Accessible.role: Accessible.StaticText
            Accessible.name: qsTr("%1 said: %2").arg(quote.modelData.who).arg(quote.modelData.text)

            Rectangle {
                Layout.fillHeight: true
                Layout.preferredWidth: 3
                radius: 1
                color: Theme.error
            }
            ColumnLayout {
                Layout.fillWidth: true
                spacing: 2
                Label {
                    textFormat: Text.PlainText
                    objectName: "quoteWho"
                    Layout.fillWidth: true
                    text: quote.modelData.who.length > 0 ? qsTr("%1 said:").arg(quote.modelData.who)
                                                         : qsTr("The server said:")
                    color: Theme.mutedText
                    font.pixelSize: 12
                    elide: Text.ElideRight
                }
                Label {
                    objectName: "quoteText"
                    Layout.fillWidth: true
                    // The server's words, in the language's quotation marks.
                    text: qsTr("“%1”").arg(quote.modelData.text)
                    color: Theme.text
                    font.family: Theme.monoFont
                    font.pixelSize: 12
                    wrapMode: Text.Wrap
                    textFormat: Text.PlainText
                }
            }
        }
    }

    Label {
        textFormat: Text.PlainText
        objectName: "nearMissesHeading"
        Layout.fillWidth: true
        Layout.topMargin: 2
        visible: root.stage === "authorization"
        text: root.nearMisses.length > 0
              ? qsTr("Bindings that name this identity but did not apply (%1):").arg(root.nearMisses.length)
              : qsTr("No RBAC binding names this identity, its groups or its service account.")
        color: root.nearMisses.length > 0 ? Theme.text : Theme.mutedText
        font.weight: root.nearMisses.length > 0 ? Font.DemiBold : Font.Normal
        wrapMode: Text.Wrap
    }

    Repeater {
        model: root.nearMisses
        delegate: Rectangle {
            id: miss

            required property int index
            required property var modelData

            objectName: "nearMiss-" + miss.index
            Layout.fillWidth: true
            implicitHeight: missColumn.implicitHeight + 16
            radius: 4
            color: Theme.stripe
            border.color: Theme.border
            Accessible.role: Accessible.StaticText
            Accessible.name: qsTr("%1 grants %2 to %3, did not apply: %4. %5")
                                 .arg(miss.modelData.bindingText).arg(miss.modelData.roleText)
                                 .arg(miss.modelData.subjectText).arg(miss.modelData.reasonText)
                                 .arg(miss.modelData.message)

            ColumnLayout {
                id: missColumn
                anchors.left: parent.left
                anchors.right: parent.right
                anchors.top: parent.top
                anchors.margins: 8
                anchors.leftMargin: 10
                spacing: 3

                RowLayout {
                    Layout.fillWidth: true
                    spacing: 8
                    Label {
                        objectName: "nearMissBinding"
                        Layout.fillWidth: true
                        text: qsTr("%1 → %2").arg(miss.modelData.bindingText).arg(miss.modelData.roleText)
                        color: Theme.text
                        font.family: Theme.monoFont
                        font.pixelSize: 12
                        font.weight: Font.DemiBold
                        wrapMode: Text.Wrap
                        textFormat: Text.PlainText
                    }
                    StatusBadge {
                        objectName: "nearMissReason"
                        Layout.alignment: Qt.AlignTop
                        family: miss.modelData.code === "noRuleMatches" ? "waiting" : "exception"
                        text: miss.modelData.reasonText
                    }
                }
                Label {
                    textFormat: Text.PlainText
                    objectName: "nearMissSubject"
                    Layout.fillWidth: true
                    text: qsTr("via %1").arg(miss.modelData.subjectText)
                    color: Theme.mutedText
                    font.pixelSize: 12
                    elide: Text.ElideRight
                }
                Label {
                    objectName: "nearMissMessage"
                    Layout.fillWidth: true
                    text: miss.modelData.message // the server's words
                    color: Theme.text
                    wrapMode: Text.Wrap
                    textFormat: Text.PlainText
                }
                Repeater {
                    model: miss.modelData.rules
                    delegate: ColumnLayout {
                        id: rule

                        required property var modelData

                        objectName: "ruleMiss-" + rule.modelData.index
                        Layout.fillWidth: true
                        Layout.topMargin: 2
                        spacing: 1
                        Label {
                            objectName: "ruleText"
                            Layout.fillWidth: true
                            text: qsTr("rule %1: %2").arg(rule.modelData.index).arg(rule.modelData.rule)
                            color: Theme.mutedText
                            font.family: Theme.monoFont
                            font.pixelSize: 11
                            wrapMode: Text.Wrap
                            textFormat: Text.PlainText
                        }
                        Label {
                            textFormat: Text.PlainText
                            objectName: "ruleMissText"
                            Layout.fillWidth: true
                            Layout.leftMargin: 12
                            // Which parts miss (ours), then each in the server's words.
                            text: qsTr("no match on %1:").arg(rule.modelData.missText)
                            color: Theme.text
                            font.pixelSize: 12
                            wrapMode: Text.Wrap
                        }
                        Repeater {
                            model: rule.modelData.messages
                            delegate: Label {
                                required property string modelData
                                objectName: "ruleMissMessage"
                                Layout.fillWidth: true
                                Layout.leftMargin: 24
                                text: "• " + modelData
                                color: Theme.text
                                font.pixelSize: 12
                                wrapMode: Text.Wrap
                                textFormat: Text.PlainText
                            }
                        }
                    }
                }
            }
        }
    }
}
