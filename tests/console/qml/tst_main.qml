import QtQuick
import QtTest
import Gatehouse
import GatehouseTest

// The real Main.qml window: the connect dialog at start, connecting through it, the header and
// its language and theme selectors.
TestCase {
    id: testCase

    name: "Main"
    when: windowShown

    Component {
        id: mainComponent
        Main {}
    }

    function openWindow() {
        const window = createTemporaryObject(mainComponent, testCase)
        verify(window, "Main.qml instantiates")
        tryCompare(window, "visible", true, Wait.ms)
        return window
    }

    function test_window() {
        const window = openWindow()
        compare(window.title, "Gatehouse")
        compare(window.width, 1100)
        compare(window.height, 720)
        compare(findChild(window, "pageTitle").text, "Dashboard")
    }

    function test_connectDialogConnects() {
        AdminClient.disconnectFromServer()
        compare(AdminClient.connectionState, AdminClient.Disconnected)
        const window = openWindow()
        const dialog = findChild(window, "connectDialog")
        verify(dialog)
        tryCompare(dialog, "opened", true, Wait.ms) // started without a token: ask for one
        const urlField = findChild(dialog, "urlField")
        const tokenField = findChild(dialog, "tokenField")
        const connectButton = findChild(dialog, "dialogConnectButton")
        compare(urlField.text, AdminClient.adminUrlText) // prefilled
        verify(!connectButton.enabled)                     // no token yet

        // A wrong token: refused, the dialog comes back and says why.
        tokenField.text = "not-the-token"
        verify(connectButton.enabled)
        mouseClick(connectButton)
        tryCompare(AdminClient, "connectionState", AdminClient.Unauthorized, Wait.ms)
        tryCompare(dialog, "opened", true, Wait.ms)
        const error = findChild(dialog, "connectError")
        verify(error.visible)
        verify(error.text.indexOf(AdminClient.lastError) >= 0)
        compare(tokenField.text, "")

        tokenField.text = TestBackend.token
        mouseClick(connectButton)
        tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        tryCompare(dialog, "visible", false, Wait.ms)
        compare(tokenField.text, "") // not kept in the UI
        compare(findChild(window, "connectionText").text, "Remote · Online")
    }

    function test_languageSelectorSwitchesAtOnce() {
        const window = openWindow()
        const selector = findChild(window, "languageSelector")
        const pageTitle = findChild(window, "pageTitle")
        const connectButton = findChild(window, "connectButton")
        verify(selector)
        compare(selector.Accessible.name, "Language")
        compare(pageTitle.text, "Dashboard")
        // A filter chosen on the Orders page stays chosen when its options are translated.
        // (A page is made when first shown.)
        window.currentPage = Navigation.indexOf("orders")
        window.currentPage = Navigation.indexOf("dashboard")
        const statusFilter = findChild(window.contentItem, "statusFilter")
        verify(statusFilter)
        statusFilter.currentIndex = statusFilter.indexOfValue("DELIVERED")
        statusFilter.activated(statusFilter.currentIndex)
        compare(Orders.statusFilter, "DELIVERED")

        // French: the header, the rail (a C++ model) and the page follow without a restart.
        const french = selector.indexOfValue("fr")
        verify(french > 0)
        selector.currentIndex = french
        selector.activated(french)
        compare(Language.language, "fr")
        compare(Language.choice, "fr")
        compare(selector.currentText, "Français")
        compare(pageTitle.text, "Synthèse")
        compare(connectButton.text, "Connexion…")
        compare(findChild(window.contentItem, "nav-dashboard").text, "Synthèse")
        compare(Navigation.titles[Navigation.indexOf("orders")], "Commandes")
        compare(statusFilter.currentValue, "DELIVERED")
        compare(statusFilter.currentText, "Livrée")

        // German, then English again.
        const german = selector.indexOfValue("de")
        selector.currentIndex = german
        selector.activated(german)
        compare(pageTitle.text, "Übersicht")
        compare(connectButton.text, "Verbinden…")
        const english = selector.indexOfValue("en")
        selector.currentIndex = english
        selector.activated(english)
        compare(pageTitle.text, "Dashboard")
        compare(connectButton.text, "Connect…")
        compare(selector.currentText, "English")

        compare(statusFilter.currentText, "Delivered")

        // Back to the system's language (cleanup() makes sure of it).
        Language.choose("")
        compare(selector.currentIndex, 0)
    }

    function test_themeSelectorSwitchesAtOnce() {
        Appearance.choose("light")
        const window = openWindow()
        const selector = findChild(window, "themeSelector")
        verify(selector)
        compare(selector.Accessible.name, "Theme")
        compare(selector.count, 3)
        compare(selector.currentText, "Light")
        verify(!Theme.dark)
        // A page's background and a control that takes its colours from the palette; and the
        // same in an open dialog (popups inherit the window's palette once shown).
        window.currentPage = Navigation.indexOf("settings")
        const page = findChild(window.contentItem, "page-settings")
        verify(page)
        const field = findChild(page, "settingsFilter")
        verify(field)
        const dialog = findChild(window, "connectDialog")
        dialog.open()
        tryCompare(dialog, "opened", true, Wait.ms)
        const dialogField = findChild(dialog, "urlField")
        verify(dialogField)
        // (As strings: a colour read from a property follows the property.)
        const lightBackground = String(page.background.color)
        const lightBase = String(field.palette.base)
        const lightText = String(field.palette.text)
        verify(Qt.colorEqual(lightBackground, Theme.background))
        verify(Qt.colorEqual(lightBase, Theme.field))
        verify(Qt.colorEqual(lightText, Theme.text))
        verify(Qt.colorEqual(dialogField.palette.base, Theme.field))
        verify(Qt.colorEqual(window.color, Theme.background))
        dialog.close()
        tryCompare(dialog, "visible", false, Wait.ms)

        // Dark: everything follows at once, without a restart or a frame in between.
        const dark = selector.indexOfValue("dark")
        verify(dark > 0)
        selector.currentIndex = dark
        selector.activated(dark)
        compare(Appearance.choice, "dark")
        verify(Appearance.dark)
        verify(Theme.dark)
        compare(selector.currentText, "Dark")
        verify(Qt.colorEqual(page.background.color, Theme.background))
        verify(!Qt.colorEqual(page.background.color, lightBackground))
        verify(Qt.colorEqual(window.color, Theme.background))
        verify(Qt.colorEqual(field.palette.base, Theme.field))
        verify(!Qt.colorEqual(field.palette.base, lightBase))
        verify(Qt.colorEqual(field.palette.text, Theme.text))
        verify(!Qt.colorEqual(field.palette.text, lightText))
        verify(Qt.colorEqual(field.color, Theme.text)) // what the field draws its text with
        verify(Qt.colorEqual(field.placeholderTextColor, Theme.mutedText))
        // Disabled controls keep their own (greyed) colours after the switch.
        verify(Qt.colorEqual(field.palette.disabled.text, Theme.idle))
        verify(Qt.colorEqual(field.palette.disabled.base, Theme.disabledBase))
        dialog.open()
        tryCompare(dialog, "opened", true, Wait.ms)
        verify(Qt.colorEqual(dialogField.palette.base, Theme.field))
        verify(Qt.colorEqual(dialogField.palette.text, Theme.text))
        const connectButton = findChild(dialog, "dialogConnectButton")
        verify(Qt.colorEqual(connectButton.palette.disabled.buttonText, Theme.idle))

        // Light again. (A dialog that is open keeps its controls' colours until it closes: Qt
        // 6.4 does not pass a palette change on to the controls of an open popup. Only the
        // desktop can switch while a modal dialog is open; the header's menu is behind it.)
        dialog.close()
        tryCompare(dialog, "visible", false, Wait.ms)
        const light = selector.indexOfValue("light")
        selector.currentIndex = light
        selector.activated(light)
        compare(selector.currentText, "Light")
        verify(!Theme.dark)
        verify(Qt.colorEqual(page.background.color, lightBackground))
        verify(Qt.colorEqual(field.palette.base, lightBase))
        verify(Qt.colorEqual(field.palette.text, lightText))
        dialog.open()
        tryCompare(dialog, "opened", true, Wait.ms)
        verify(Qt.colorEqual(dialogField.palette.base, lightBase))
        dialog.close()
        tryCompare(dialog, "visible", false, Wait.ms)
        // Back to the system's (cleanup() makes sure of it).
        selector.currentIndex = 0
        selector.activated(0)
        compare(Appearance.choice, "system")
    }

    function cleanup() {
        if (Appearance.choice !== "system")
            Appearance.choose("system") // the other tests expect the system's colours
        if (Language.choice !== "")
            Language.choose("") // the other tests expect the system's language
        Orders.statusFilter = ""
    }

    function test_headerOpensDialog() {
        const window = openWindow()
        const dialog = findChild(window, "connectDialog")
        tryCompare(AdminClient, "connectionState", AdminClient.Online, Wait.ms)
        verify(!dialog.visible)
        mouseClick(findChild(window, "connectButton"))
        tryCompare(dialog, "opened", true, Wait.ms)
        mouseClick(findChild(dialog, "dialogCancelButton"))
        tryCompare(dialog, "visible", false, Wait.ms)
        compare(AdminClient.connectionState, AdminClient.Online) // cancel changes nothing
    }
}
