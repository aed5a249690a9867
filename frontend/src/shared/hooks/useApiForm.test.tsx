import { act, render, screen } from '@testing-library/react';
import { Form, Input, type FormInstance } from 'antd';
import { describe, expect, it } from 'vitest';
import { ApiError } from '@/api/errors';
import { applyApiErrorToForm } from './useApiForm';

interface Values {
  name: string;
  code: string;
}

function Harness({ onForm }: { onForm: (form: FormInstance<Values>) => void }) {
  const [form] = Form.useForm<Values>();
  onForm(form);
  return (
    <Form form={form}>
      <Form.Item name="name" label="n">
        <Input />
      </Form.Item>
      <Form.Item name="code" label="c">
        <Input />
      </Form.Item>
    </Form>
  );
}

describe('applyApiErrorToForm', () => {
  it('puts field errors on their fields and returns the rest for the form alert', async () => {
    let form: FormInstance<Values> | undefined;
    render(<Harness onForm={(f) => (form = f)} />);
    const error = new ApiError({
      message: 'Invalid input.',
      code: 400,
      error: 'validation_error',
      status: 400,
      data: { name: ['This field is required.'], non_field_errors: ['Code and name clash.'], unknown: ['Odd.'] },
    });
    let rest: string | null = null;
    act(() => {
      rest = applyApiErrorToForm(form!, error, () => 'fallback');
    });
    expect(await screen.findByText('This field is required.')).toBeInTheDocument();
    expect(form!.getFieldError('name')).toEqual(['This field is required.']);
    expect(rest).toBe('Code and name clash. Odd.');
  });

  it('returns the error text when there are no field errors', () => {
    let form: FormInstance<Values> | undefined;
    render(<Harness onForm={(f) => (form = f)} />);
    const error = new ApiError({ message: 'Forbidden', code: 403, status: 403 });
    expect(applyApiErrorToForm(form!, error, (e) => (e as Error).message)).toBe('Forbidden');
  });

  it('puts nested errors on Form.List items, or on the nearest registered parent', async () => {
    interface ListValues {
      contacts: { name: string; email: string }[];
      address: { street: string };
    }
    let form: FormInstance<ListValues> | undefined;
    function ListHarness({ onForm }: { onForm: (f: FormInstance<ListValues>) => void }) {
      const [f] = Form.useForm<ListValues>();
      onForm(f);
      return (
        <Form form={f} initialValues={{ contacts: [{ name: 'a', email: '' }, { name: 'b', email: 'x' }], address: { street: '' } }}>
          <Form.List name="contacts">
            {(fields) =>
              fields.map((field) => (
                <div key={field.key}>
                  <Form.Item name={[field.name, 'name']}>
                    <Input />
                  </Form.Item>
                  <Form.Item name={[field.name, 'email']}>
                    <Input />
                  </Form.Item>
                </div>
              ))
            }
          </Form.List>
          <Form.Item name="address">
            <Input />
          </Form.Item>
        </Form>
      );
    }
    render(<ListHarness onForm={(f) => (form = f)} />);
    const error = new ApiError({
      message: 'Invalid input.',
      code: 400,
      error: 'validation_error',
      status: 400,
      data: { contacts: [{}, { email: ['Enter a valid e-mail address.'] }], address: { street: ['Required.'] } },
    });
    let rest: string | null = 'unset';
    act(() => {
      rest = applyApiErrorToForm(form!, error, () => 'fallback');
    });
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeInTheDocument();
    expect(form!.getFieldError(['contacts', 1, 'email'])).toEqual(['Enter a valid e-mail address.']);
    expect(form!.getFieldError(['contacts', 0, 'email'])).toEqual([]);
    expect(form!.getFieldError('address')).toEqual(['Required.']);
    expect(rest).toBeNull();
  });
});
