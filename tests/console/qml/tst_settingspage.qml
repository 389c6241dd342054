import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The Settings page against the in-test admin server: settings grouped with their value and
// source; a live setting applies at once; another is kept for the next start (restart
// required, discard); a setting given by a flag cannot be edited and says why; the server's
// refusal shows on the row; the filter (Ctrl+F).
Item {
    id: root

    width: 1300
    height: 900

    SettingsPage {
        id: page
        anchors.fill: parent
    }

    TestCase {
        id: testCase

        name: "SettingsPage"
        when: windowShown

        // Found once in initTestCase: a findChild() binding walks the whole tree again whenever
        // any item under it gains a child.
        property var list: null

        function row(key) {
            const i = BackendSettings.indexOfId(key)
            verify(i >= 0, "setting " + key)
            testCase.list.positionViewAtIndex(i, ListView.Center)
            let r = null
            tryVerify(() => (r = findChild(testCase.list, "setting-" + key)) !== null, Wait.ms, "row " + key)
            return r
        }

        function initTestCase() {
            list = findChild(page, "settingsList")
            tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        }

        function init() {
            TestBackend.resetSettings()
            BackendSettings.filter = ""
            findChild(page, "settingsFilter").text = ""
            BackendSettings.reload()
            tryVerify(() => !BackendSettings.loading && BackendSettings.count === 8, Wait.ms, "settings loaded")
        }

        function test_groupedWithValueAndSource() {
            // Grouped in the page's order, whatever order the server lists them in.
            compare(BackendSettings.idAt(0), "service-port")
            compare(BackendSettings.idAt(7), "data-dir")
            verify(findChild(testCase.list, "section-Listeners"), "the Listeners heading")
            const r = row("webhook-retry-schedule")
            compare(findChild(r, "settingField").text, "5s,5m,30m,2h,5h,10h,10h")
            compare(findChild(r, "settingSource").text, "from default")
            verify(!findChild(r, "settingLive").visible)
            verify(findChild(row("anonymous-auth"), "settingLive").visible)
            compare(findChild(page, "settingsCount").text, "8 shown")
            verify(!findChild(page, "restartBanner").visible)
        }

        function test_liveSettingAppliesAtOnce() {
            const r = row("anonymous-auth")
            const sw = findChild(r, "settingSwitch")
            verify(sw.visible)
            verify(sw.checked)
            mouseClick(sw)
            const apply = findChild(r, "settingApply")
            tryCompare(apply, "visible", true, Wait.ms)
            compare(apply.text, "Apply now")
            mouseClick(apply)
            tryVerify(() => TestBackend.setting("anonymous-auth").value === "false", Wait.ms, "applied")
            const again = row("anonymous-auth")
            tryCompare(findChild(again, "settingSwitch"), "checked", false, Wait.ms)
            tryCompare(findChild(again, "settingSource"), "text", "from changed through the admin API", Wait.ms)
            verify(!findChild(page, "restartBanner").visible, "a live change needs no restart")
        }

        function test_restartSettingIsKeptForNextStart() {
            const r = row("webhook-retry-schedule")
            const field = findChild(r, "settingField")
            field.text = "1s,10s"
            const apply = findChild(r, "settingApply")
            tryCompare(apply, "visible", true, Wait.ms)
            compare(apply.text, "Keep for next start")
            mouseClick(apply)
            tryVerify(() => TestBackend.setting("webhook-retry-schedule").pending === "1s,10s", Wait.ms,
                      "kept for the next start")
            const after = row("webhook-retry-schedule")
            tryCompare(findChild(after, "settingPending"), "visible", true, Wait.ms)
            compare(findChild(after, "settingNow").text, "running with 5s,5m,30m,2h,5h,10h,10h")
            compare(findChild(after, "settingField").text, "1s,10s")
            tryCompare(findChild(page, "restartBanner"), "visible", true, Wait.ms)
            verify(BackendSettings.restartRequired)

            mouseClick(findChild(after, "settingDiscard"))
            tryCompare(findChild(page, "restartBanner"), "visible", false, Wait.ms)
            compare(TestBackend.setting("webhook-retry-schedule").pending, null)
            tryCompare(findChild(row("webhook-retry-schedule"), "settingField"), "text",
                       "5s,5m,30m,2h,5h,10h,10h", Wait.ms)
        }

        function test_settingGivenByFlagSaysWhy() {
            const r = row("service-port")
            verify(!findChild(r, "settingField").enabled)
            verify(!findChild(r, "settingApply").visible)
            const why = findChild(r, "settingFixed")
            verify(why.visible)
            compare(why.text, "Given by flag --service-port, which wins at every start: change it there.")
            verify(findChild(row("data-dir"), "settingFixed").text.indexOf("--data-dir") >= 0)
        }

        function test_refusalShowsOnTheRow() {
            const r = row("max-connections")
            const field = findChild(r, "settingField")
            field.text = "lots"
            mouseClick(findChild(r, "settingApply"))
            const error = findChild(row("max-connections"), "settingError")
            tryCompare(error, "visible", true, Wait.ms)
            compare(error.text, "max-connections: expected an integer from 1 to 1000000")
            compare(TestBackend.setting("max-connections").pending, null, "nothing kept")
            // A good value clears it.
            findChild(row("max-connections"), "settingField").text = "2048"
            mouseClick(findChild(row("max-connections"), "settingApply"))
            tryCompare(findChild(row("max-connections"), "settingError"), "visible", false, Wait.ms)
            compare(TestBackend.setting("max-connections").pending, "2048")
        }

        function test_filterWithCtrlF() {
            page.forceActiveFocus()
            keyClick(Qt.Key_F, Qt.ControlModifier)
            const filter = findChild(page, "settingsFilter")
            tryCompare(filter, "activeFocus", true, Wait.ms)
            keyClick(Qt.Key_W)
            keyClick(Qt.Key_E)
            keyClick(Qt.Key_B)
            tryCompare(BackendSettings, "count", 1, Wait.ms)
            compare(BackendSettings.idAt(0), "webhook-retry-schedule")
            keyClick(Qt.Key_Escape)
            tryCompare(BackendSettings, "count", 8, Wait.ms)
        }
    }
}
