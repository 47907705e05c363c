import { randomBytes } from 'node:crypto';
import { mkdir, open, rename, rm } from 'node:fs/promises';
import path from 'node:path';

async function writeFileAtomic(file, text) {
    const dir = path.dirname(file);
    await mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.${path.basename(file)}.${process.pid}.${randomBytes(6).toString('hex')}.tmp`);
    let renamed = false;
    try {
        const handle = await open(temp, 'wx');
        try {
            await handle.writeFile(text, 'utf8');
            await handle.sync();
        }
        finally {
            await handle.close();
        }
        await rename(temp, file);
        renamed = true;
    }
    finally {
        if (!renamed)
            await rm(temp, { force: true });
    }
    await syncDirectory(dir);
}
async function syncDirectory(dir) {
    let handle;
    try {
        handle = await open(dir, 'r');
    }
    catch (err) {
        if (['EISDIR', 'EPERM', 'EACCES'].includes(String(errorCode(err))))
            return;
        throw err;
    }
    try {
        await handle.sync();
    }
    catch (err) {
        if (!['EINVAL', 'EPERM', 'EBADF', 'EISDIR'].includes(String(errorCode(err))))
            throw err;
    }
    finally {
        await handle.close();
    }
}
function errorCode(err) {
    return err !== null && typeof err === 'object' && 'code' in err ? err.code : undefined;
}

export { writeFileAtomic as w };
