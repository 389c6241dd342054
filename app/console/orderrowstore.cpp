#include "orderrowstore.h"

#include <QDateTime>
#include <QJsonValue>

namespace Gatehouse::Console {

namespace {

// The fields a packed row has, and which of the optional ones it keeps in Row::present.
enum Field : quint16 {
    HasCreated = 1 << 0,
    HasModified = 1 << 1,
    HasVersion = 1 << 2,
    HasQuantity = 1 << 3,
    HasLineCount = 1 << 4,
};

// Row::reference for "customerRef": null (-1 is no such field).
constexpr qint32 NullReference = -2;

const QLatin1String Id("id");
const QLatin1String CustomerId("customerId");
const QLatin1String CustomerName("customerName");
const QLatin1String CustomerRef("customerRef");
const QLatin1String Status("orderStatus");
const QLatin1String Version("version");
const QLatin1String Created("createdDate");
const QLatin1String Modified("lastModifiedDate");
const QLatin1String CallbackUrl("orderStatusCallbackUrl");
const QLatin1String LineCount("lineCount");
const QLatin1String Quantity("quantity");

// The API's times: "2026-11-22T03:05:39.647Z". Anything else does not pack (the row is then
// kept as it came).
bool parseTime(const QJsonValue &value, qint64 &ms)
{
    const QDateTime time = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    if (!time.isValid())
        return false;
    ms = time.toMSecsSinceEpoch();
    return true;
}

// What QDateTime::toString(Qt::ISODateWithMs) writes for a UTC time, written directly: every
// row read back formats two times, and QDateTime's general formatting was a tenth of the
// console's time while events poured in.
QString timeText(qint64 ms)
{
    constexpr qint64 MsPerDay = 86400000;
    constexpr qint64 UnixEpochJulianDay = 2440588;
    qint64 days = ms / MsPerDay;
    qint64 msOfDay = ms % MsPerDay;
    if (msOfDay < 0) {
        msOfDay += MsPerDay;
        --days;
    }
    int year = 0;
    int month = 0;
    int day = 0;
    QDate::fromJulianDay(days + UnixEpochJulianDay).getDate(&year, &month, &day);
    if (year < 1 || year > 9999)
        return QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC).toString(Qt::ISODateWithMs);
    char16_t text[24];
    const auto digits = [&text](int at, int value, int width) {
        for (int i = at + width - 1; i >= at; --i, value /= 10)
            text[i] = char16_t(u'0' + value % 10);
    };
    digits(0, year, 4);
    text[4] = u'-';
    digits(5, month, 2);
    text[7] = u'-';
    digits(8, day, 2);
    text[10] = u'T';
    digits(11, int(msOfDay / 3600000), 2);
    text[13] = u':';
    digits(14, int(msOfDay / 60000 % 60), 2);
    text[16] = u':';
    digits(17, int(msOfDay / 1000 % 60), 2);
    text[19] = u'.';
    digits(20, int(msOfDay % 1000), 3);
    text[23] = u'Z';
    return QString(reinterpret_cast<const QChar *>(text), 24);
}

} // namespace

quint32 OrderRowStore::intern(const QJsonValue &value)
{
    if (!value.isString())
        return 0;
    const QString text = value.toString();
    const auto found = m_stringIndex.constFind(text);
    if (found != m_stringIndex.cend())
        return found.value();
    m_strings.append(text);
    const auto interned = quint32(m_strings.size());
    m_stringIndex.insert(text, interned);
    return interned;
}

QString OrderRowStore::string(quint32 interned) const
{
    return m_strings.at(qsizetype(interned) - 1);
}

OrderRowStore::Row OrderRowStore::pack(const QJsonObject &object)
{
    Row row;
    const qsizetype referencesBefore = m_references.size();
    row.id = QUuid::fromString(object.value(Id).toString());
    row.customerId = intern(object.value(CustomerId));
    row.customerName = intern(object.value(CustomerName));
    row.status = intern(object.value(Status));
    row.callbackUrl = intern(object.value(CallbackUrl));
    if (const QJsonValue ref = object.value(CustomerRef); ref.isNull()) {
        row.reference = NullReference;
    } else if (ref.isString()) {
        const QByteArray utf8 = ref.toString().toUtf8();
        if (utf8.size() <= 0xffff) {
            row.reference = qint32(m_references.size());
            row.referenceLength = quint16(utf8.size());
            m_references.append(utf8);
        }
    }
    if (object.contains(Created) && parseTime(object.value(Created), row.created))
        row.present |= HasCreated;
    if (object.contains(Modified) && parseTime(object.value(Modified), row.modified))
        row.present |= HasModified;
    const auto number = [&object, &row](QLatin1String key, qint32 &into, Field bit) {
        if (object.contains(key)) {
            into = object.value(key).toInt();
            row.present |= bit;
        }
    };
    number(Version, row.version, HasVersion);
    number(Quantity, row.quantity, HasQuantity);
    number(LineCount, row.lineCount, HasLineCount);
    // Exactly what came in, or the object itself (a bigger row, but the same answers).
    if (row.id.isNull() || unpack(row) != object) {
        m_references.truncate(referencesBefore);
        row = Row{};
        row.object = qint32(m_objects.size());
        m_objects.append(object);
    }
    return row;
}

QJsonObject OrderRowStore::unpack(const Row &row) const
{
    if (row.object >= 0)
        return m_objects.at(row.object);
    QJsonObject object;
    object.insert(Id, row.id.toString(QUuid::WithoutBraces));
    if (row.customerId)
        object.insert(CustomerId, string(row.customerId));
    if (row.customerName)
        object.insert(CustomerName, string(row.customerName));
    if (row.reference >= 0)
        object.insert(CustomerRef, QString::fromUtf8(m_references.constData() + row.reference,
                                                     row.referenceLength));
    else if (row.reference == NullReference)
        object.insert(CustomerRef, QJsonValue::Null);
    if (row.status)
        object.insert(Status, string(row.status));
    if (row.callbackUrl)
        object.insert(CallbackUrl, string(row.callbackUrl));
    if (row.present & HasCreated)
        object.insert(Created, timeText(row.created));
    if (row.present & HasModified)
        object.insert(Modified, timeText(row.modified));
    if (row.present & HasVersion)
        object.insert(Version, row.version);
    if (row.present & HasQuantity)
        object.insert(Quantity, row.quantity);
    if (row.present & HasLineCount)
        object.insert(LineCount, row.lineCount);
    return object;
}

QJsonObject OrderRowStore::at(qsizetype row) const
{
    return unpack(m_rows.at(row));
}

QString OrderRowStore::idAt(qsizetype row) const
{
    const Row &r = m_rows.at(row);
    return r.object >= 0 ? m_objects.at(r.object).value(Id).toString()
                         : r.id.toString(QUuid::WithoutBraces);
}

qsizetype OrderRowStore::indexOfId(const QString &id) const
{
    // A packed row's id is its UUID's text exactly (pack checks), so a UUID compares.
    const QUuid uuid = QUuid::fromString(id);
    const bool packable = !uuid.isNull() && uuid.toString(QUuid::WithoutBraces) == id;
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        const Row &r = m_rows.at(i);
        if (r.object >= 0) {
            if (m_objects.at(r.object).value(Id).toString() == id)
                return i;
        } else if (packable && r.id == uuid) {
            return i;
        }
    }
    return -1;
}

bool OrderRowStore::equals(qsizetype row, const QJsonObject &object) const
{
    // An event changes the status and the version: tell those apart without reading the row.
    if (const Row &r = m_rows.at(row); r.object < 0) {
        if ((r.present & HasVersion) && object.value(Version).toInt() != r.version)
            return false;
        if (r.status && object.value(Status).toString() != string(r.status))
            return false;
    }
    return at(row) == object;
}

void OrderRowStore::reset(const QList<QJsonObject> &rows)
{
    m_rows.clear();
    m_strings.clear();
    m_stringIndex.clear();
    m_references.clear();
    m_objects.clear();
    m_rows.reserve(rows.size());
    for (const QJsonObject &object : rows)
        m_rows.append(pack(object));
}

void OrderRowStore::insert(qsizetype row, const QJsonObject &object)
{
    m_rows.insert(row, pack(object));
}

void OrderRowStore::replace(qsizetype row, const QJsonObject &object)
{
    const Row previous = m_rows.at(row);
    const qsizetype referencesBefore = m_references.size();
    Row next = pack(object);
    // A status change keeps the reference: use the bytes already there.
    if (next.reference >= 0 && previous.reference >= 0 &&
        next.referenceLength == previous.referenceLength &&
        QByteArrayView(m_references.constData() + next.reference, next.referenceLength) ==
            QByteArrayView(m_references.constData() + previous.reference,
                           previous.referenceLength)) {
        next.reference = previous.reference;
        m_references.truncate(referencesBefore);
    }
    m_rows[row] = next;
}

void OrderRowStore::remove(qsizetype row)
{
    m_rows.removeAt(row);
}

qsizetype OrderRowStore::unpackedCount() const
{
    return std::count_if(m_rows.cbegin(), m_rows.cend(),
                         [](const Row &r) { return r.object >= 0; });
}

} // namespace Gatehouse::Console
