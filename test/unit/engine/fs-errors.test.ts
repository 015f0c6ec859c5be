// How a failed file operation is told: its cause and a remedy that fits the operation.
import { describe, expect, it } from 'vitest';
import { fsError } from '../../../src/engine/index.js';

const errno = (code: string) => Object.assign(new Error(code), { code });

describe('fsError', () => {
  it('permission denied: a read is mended on the file, a write by going elsewhere or granting it', () => {
    for (const action of ['read', 'read footage', 'import', 'open the project'])
      expect(fsError(errno('EACCES'), '/x', action).remediation).toMatch(/read access to the file/);
    for (const action of ['write', 'save the project', 'create the folder'])
      expect(fsError(errno('EPERM'), '/x', action).remediation).toMatch(/write access to that folder/);
  });

  it('a file where a folder should be says so', () => {
    const e = fsError(errno('ENOTDIR'), '/a/file/x.png', 'write');
    expect(e.code).toBe('no_such_file');
    expect(e.message).toBe(
      'Cannot write "/a/file/x.png": a part of the path is a file where a folder should be.',
    );
  });
});
