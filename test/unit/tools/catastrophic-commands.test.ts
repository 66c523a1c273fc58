import { describe, expect, it } from 'vitest';
import { isCatastrophicCommand } from '../../../tools/catastrophic-commands.js';

describe('isCatastrophicCommand', () => {
  it.each([
    'rm -rf /',
    'rm -rf /*',
    'rm -fr /',
    'rm -r -f /',
    'rm --recursive --force /',
    'sudo rm -rf --no-preserve-root /',
    'rm -rf "/"',
    'cd /tmp && rm -Rf //',
    'rm -rf ~',
    'rm -rf /etc',
    'sh -c "rm -rf /"',
    'mkfs.ext4 /dev/sda1',
    'mkfs -t ext4 /dev/nvme0n1',
    'dd if=/dev/zero of=/dev/sda bs=1M',
    'shutdown -h now',
    'sudo reboot',
    'halt',
    'poweroff',
    'systemctl reboot',
    ':(){ :|:& };:',
    'echo "x:0:0::/:/bin/sh" >> /etc/passwd',
    'cat hash > /etc/shadow',
    'echo key >> ~/.ssh/authorized_keys',
    'tee -a /root/.ssh/authorized_keys < key.pub',
    'cp evil /etc/passwd',
    'sed -i s/x/y/ /etc/shadow',
    'sudo -u root shutdown now',
    'cat image > /dev/sda',
  ])('refuses %s', (command) => {
    expect(isCatastrophicCommand(command)).toEqual(expect.any(String));
  });

  it.each([
    'echo hi',
    'rm -rf ./build',
    'rm -rf /tmp/echo-work',
    'rm file.txt',
    'ls -la /',
    'cat /etc/passwd',
    'dd if=/dev/zero of=/dev/null count=1',
    'dd if=in.img of=out.img',
    'grep shutdown server.log',
    'echo reboot later',
    'cp ~/.ssh/config backup-config',
    'git commit -m "fix rm -rf handling"',
  ])('allows %s', (command) => {
    expect(isCatastrophicCommand(command)).toBeUndefined();
  });
});
